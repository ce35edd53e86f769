import { splitFrontMatter } from '../front-matter.js';

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

/**
 * Parses a custom slash command file: optional front matter between `---` lines (YAML, read by the
 * `yaml` package), then the prompt. The keys read are `description`, `argument-hint`, `model` (one
 * value each) and `allowed-tools` (a list, or one comma-separated string whose commas inside
 * parentheses belong to the rule); others are ignored. An unclosed front matter, YAML that does not
 * parse, a key given twice, or a list where one value goes fails with its line, so a broken file is
 * reported rather than half-read.
 */
export function parseCommandFile(text: string): ParsedCommandFile {
  const split = splitFrontMatter(text);
  if (!split.ok) return split;
  const parsed = split.frontMatter;
  const values = new Map<string, string | readonly string[]>();
  for (const key of ['description', 'argument-hint', 'model', 'allowed-tools']) {
    const value = parsed.get(key);
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && key === 'allowed-tools')
      values.set(
        key,
        value.map((item) => String(item)),
      );
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values.set(key, String(value));
    else
      return {
        ok: false,
        line: 1,
        message: `${key} must be one value, not ${Array.isArray(value) ? 'a list' : 'a map'}`,
      };
  }
  const scalar = (key: string): string | undefined => {
    const value = values.get(key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const description = scalar('description');
  const argumentHint = scalar('argument-hint');
  const model = scalar('model');
  const tools = values.get('allowed-tools');
  const allowedTools = tools === undefined ? [] : typeof tools === 'string' ? splitRules(tools) : tools;
  return {
    ok: true,
    file: {
      ...(description === undefined ? {} : { description }),
      ...(argumentHint === undefined ? {} : { argumentHint }),
      ...(model === undefined ? {} : { model }),
      allowedTools: allowedTools.map((rule) => rule.trim()).filter((rule) => rule !== ''),
      body: split.body,
    },
  };
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
      rules.push(current.trim());
      current = '';
    } else current += character;
  }
  rules.push(current.trim());
  return rules.filter((rule) => rule !== '');
}
