/** What a custom command file says: its front matter's keys and the prompt template. */
export type CommandFile = {
  readonly description?: string;
  readonly argumentHint?: string;
  /** Permission rules granted for the command's turn (`allowed-tools`), one rule each. */
  readonly allowedTools: readonly string[];
  readonly model?: string;
  /** The prompt template: the text after the front matter. */
  readonly body: string;
};

/** A command file parsed, or why it could not be (with the 1-based line). */
export type ParsedCommandFile =
  | { readonly ok: true; readonly file: CommandFile }
  | { readonly ok: false; readonly line: number; readonly message: string };

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'description',
  'argument-hint',
  'allowed-tools',
  'model',
  'disable-model-invocation',
]);

type FrontMatter = Map<string, string | readonly string[]>;
type Failure = { readonly ok: false; readonly line: number; readonly message: string };

/**
 * Parses a custom slash command file: optional front matter between `---` lines, then the prompt.
 * The front matter is the small YAML subset such files use: `key: value` (quoted or not), a flow
 * list `[a, b]`, or a block list of `- item` lines, and `#` comments. `allowed-tools` may be a
 * list or one comma-separated string; commas inside parentheses belong to the rule. Anything
 * else (an unclosed front matter, a line that is not `key: value`, a key given twice) fails with
 * its line, so a broken file is reported rather than half-read.
 */
export function parseCommandFile(text: string): ParsedCommandFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { ok: true, file: { allowedTools: [], body: text.trim() } };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { ok: false, line: 1, message: 'the front matter opened by --- is never closed' };
  const parsed = parseFrontMatter(lines.slice(1, end));
  if (!(parsed instanceof Map)) return parsed;
  const scalar = (key: string): string | Failure | undefined => {
    const value = parsed.get(key);
    if (value === undefined || typeof value === 'string') return value === '' ? undefined : value;
    return { ok: false, line: 1, message: `${key} must be one value, not a list` };
  };
  const description = scalar('description');
  const argumentHint = scalar('argument-hint');
  const model = scalar('model');
  for (const value of [description, argumentHint, model]) if (typeof value === 'object') return value;
  const tools = parsed.get('allowed-tools');
  const allowedTools = tools === undefined ? [] : typeof tools === 'string' ? splitRules(tools) : tools;
  return {
    ok: true,
    file: {
      ...(typeof description === 'string' ? { description } : {}),
      ...(typeof argumentHint === 'string' ? { argumentHint } : {}),
      ...(typeof model === 'string' ? { model } : {}),
      allowedTools: allowedTools.filter((rule) => rule !== ''),
      body: lines
        .slice(end + 1)
        .join('\n')
        .trim(),
    },
  };
}

/** The front matter's lines (without the `---`) as keys and values; the line numbers count the opening `---`. */
function parseFrontMatter(lines: readonly string[]): FrontMatter | Failure {
  const values: FrontMatter = new Map();
  let listKey: string | undefined;
  for (const [index, raw] of lines.entries()) {
    const number = index + 2;
    const line = withoutComment(raw).trimEnd();
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const list = values.get(listKey);
      values.set(listKey, [...(Array.isArray(list) ? list : []), unquote(item[1] ?? '')]);
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (!pair)
      return { ok: false, line: number, message: `expected "key: value", found ${JSON.stringify(raw.trim())}` };
    const key = (pair[1] ?? '').toLowerCase();
    if (values.has(key)) return { ok: false, line: number, message: `${key} is given twice` };
    const value = (pair[2] ?? '').trim();
    listKey = value === '' ? key : undefined;
    if (!KNOWN_KEYS.has(key)) continue;
    if (value.startsWith('[')) {
      if (!value.endsWith(']')) return { ok: false, line: number, message: `the list of ${key} is not closed with ]` };
      values.set(key, splitRules(value.slice(1, -1)).map(unquote));
    } else values.set(key, unquote(value));
  }
  return values;
}

/** The line without a `#` comment: one that follows whitespace, outside quotes. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const character = line.charAt(index);
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === '#' && (index === 0 || /\s/.test(line.charAt(index - 1)))) return line.slice(0, index);
  }
  return line;
}

/** Removes one pair of matching quotes around a value. */
function unquote(value: string): string {
  const text = value.trim();
  const quoted = /^"(.*)"$/.exec(text) ?? /^'(.*)'$/.exec(text);
  return quoted ? (quoted[1] ?? '') : text;
}

/** Splits `Bash(git add:*), Read` at the commas outside parentheses. */
function splitRules(text: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth += 1;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (character === ',' && depth === 0) {
      rules.push(unquote(current));
      current = '';
    } else current += character;
  }
  rules.push(unquote(current));
  return rules.filter((rule) => rule !== '');
}
