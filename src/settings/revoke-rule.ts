import { readFile } from 'node:fs/promises';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { parseSettingsText } from './parse-settings-text.js';
import { readJsonString } from './read-json-string.js';
import { pathKey, readJsonValue } from './read-json-value.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** Where a rule sits in a settings file: its list, its place in it, and its 1-based line. */
export type RuleLocation = {
  readonly behavior: 'allow' | 'deny' | 'ask';
  readonly index: number;
  readonly line: number;
};

const isSpace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r';

/** Every place `rule` (trimmed) is written in the permission lists of a settings file's text. */
export function locateRule(text: string, rule: string): RuleLocation[] {
  const read = readJsonValue(text);
  const permissions = (read.value as { permissions?: Record<string, unknown> } | null)?.permissions;
  const found: RuleLocation[] = [];
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    const list = permissions?.[behavior];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      if (typeof entry !== 'string' || entry.trim() !== rule.trim()) return;
      const offset = read.offsets.get(pathKey(['permissions', behavior, index])) ?? 0;
      found.push({ behavior, index, line: text.slice(0, offset).split('\n').length });
    });
  }
  return found;
}

/**
 * The text without the list element that starts at `start` (a JSON string), everything else kept
 * as written: the comma that joined it to a neighbour goes with it, and a list left empty closes up.
 */
function withoutElement(text: string, start: number): string {
  const end = readJsonString(text, start).end;
  let before = start - 1;
  while (isSpace(text[before])) before -= 1;
  if (text[before] === ',') return text.slice(0, before) + text.slice(end);
  let after = end;
  while (isSpace(text[after])) after += 1;
  // The first element: it takes the comma after it and the space up to the next element.
  if (text[after] === ',') {
    after += 1;
    while (isSpace(text[after])) after += 1;
    return text.slice(0, start) + text.slice(after);
  }
  // The only element: the list becomes `[]`.
  return text.slice(0, before + 1) + text.slice(after);
}

/**
 * Removes every copy of `rule` from the `behavior` list of the settings file `file`, changing
 * nothing else in its text (indentation, key order, other rules). Returns how many were removed.
 * A file that cannot be parsed is left untouched: `SETTINGS_INVALID`.
 */
export async function revokeRule(options: {
  readonly file: string;
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
}): Promise<number> {
  let text = await readFile(options.file, 'utf8');
  parseSettingsText(text, options.file);
  let removed = 0;
  for (;;) {
    const location = locateRule(text, options.rule).find((each) => each.behavior === options.behavior);
    if (location === undefined) break;
    const start = readJsonValue(text).offsets.get(pathKey(['permissions', options.behavior, location.index]));
    if (start === undefined)
      throw new ToolplaneError('SETTINGS_INVALID', `${options.file}: the rule moved while it was removed`);
    text = withoutElement(text, start);
    removed += 1;
  }
  if (removed > 0) {
    // The result must still be the same settings file, less the rule.
    parseSettingsText(text, options.file);
    await writeFileAtomic({ path: options.file, text });
  }
  return removed;
}
