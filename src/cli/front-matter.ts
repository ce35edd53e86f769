import { parseDocument } from 'yaml';

/** Front matter keys and values as YAML gives them (keys kept as data: `__proto__` is only a name). */
export type FrontMatter = ReadonlyMap<unknown, unknown>;

/** A Markdown file's front matter and body, or why it could not be read (with the 1-based line). */
export type SplitFile =
  | { readonly ok: true; readonly frontMatter: FrontMatter; readonly body: string }
  | { readonly ok: false; readonly line: number; readonly message: string };

type Failure = Extract<SplitFile, { readonly ok: false }>;

/**
 * Splits a Markdown file (a custom command, an agent) into its optional front matter between `---`
 * lines, read as YAML by the `yaml` package with unique keys, and its trimmed body. An unclosed
 * front matter or YAML that does not parse fails with its line in the file.
 */
export function splitFrontMatter(text: string): SplitFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { ok: true, frontMatter: new Map(), body: text.trim() };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { ok: false, line: 1, message: 'the front matter opened by --- is never closed' };
  const parsed = parseFrontMatter(lines.slice(1, end).join('\n'));
  if (!(parsed instanceof Map)) return parsed;
  return {
    ok: true,
    frontMatter: parsed,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

/**
 * The front matter (without its `---` lines) as a map, keys kept as data (`__proto__` is only a
 * name); the line of a failure counts the opening `---`.
 */
function parseFrontMatter(text: string): Map<unknown, unknown> | Failure {
  const document = parseDocument(text, { uniqueKeys: true });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = (error.linePos?.[0].line ?? 1) + 1;
    // The library's own position counts from the front matter; the file's line is given instead.
    const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, line, message: `the front matter is not valid YAML: ${reason}` };
  }
  const value: unknown = document.toJS({ mapAsMap: true });
  if (value === null || value === undefined) return new Map();
  if (!(value instanceof Map)) return { ok: false, line: 2, message: 'the front matter must be "key: value" lines' };
  return value;
}
