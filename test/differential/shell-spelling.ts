import fc from 'fast-check';

/**
 * Words of a generated command and the ways bash lets one word be spelled: quotes inside it,
 * backslashes, backslash-newline, ANSI-C escapes and globs. A reader that sees data where bash
 * sees the same word misses what the command does.
 */

/**
 * One word. `literal`: its value, spelled any way bash reads back as the same value.
 * `shell`: shell text kept as written (`~/x`, `$HOME/x`, `/proc/$PPID/environ`): it expands.
 * `path`: a literal naming a file, which may also be spelled as a glob.
 */
export type Word = { readonly text: string; readonly kind: 'literal' | 'path' | 'shell' };

export type Spelling =
  | 'bare'
  | 'single'
  | 'double'
  | 'empty-quotes'
  | 'inner-quotes'
  | 'backslash'
  | 'line-split'
  | 'ansi-c'
  | 'glob'
  | 'class';

/** A spelling and where in the word it applies (an index into the positions it may change). */
export type WordSpelling = { readonly spelling: Spelling; readonly at: number };

/** Placeholders a fixture fills in (`{outside}/mark`); spellings never cut through one. */
export const PLACEHOLDER = /\{(work|home|outside|port|sock)\}/g;

const BARE_SAFE = /^[A-Za-z0-9_./:=@%+,{}-]+$/;

/** `text` in single quotes, bash-safe for any content. */
export function singleQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `text` in double quotes as a literal (no expansion inside). */
export function doubleQuote(text: string): string {
  return `"${text.replace(/["\\$`]/g, '\\$&')}"`;
}

/** Indices of `text` outside placeholders where a letter or digit sits. */
function editablePositions(text: string): number[] {
  const blocked = new Set<number>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    for (let index = match.index; index < match.index + match[0].length; index += 1) blocked.add(index);
  }
  const positions: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    if (!blocked.has(index) && /[A-Za-z0-9]/.test(text[index] as string)) positions.push(index);
  }
  return positions;
}

/** Renders a word with a spelling; a spelling that does not fit the word falls back to a plain one. */
export function spell(word: Word, choice: WordSpelling = { spelling: 'bare', at: 0 }): string {
  if (word.kind === 'shell') {
    // Shell text keeps its expansions; only a backslash-newline can be slipped in between characters.
    if (choice.spelling !== 'line-split') return word.text;
    const positions = editablePositions(word.text).filter((index) => index > 0);
    const at = positions[choice.at % Math.max(positions.length, 1)];
    return at === undefined ? word.text : `${word.text.slice(0, at)}\\\n${word.text.slice(at)}`;
  }
  const text = word.text;
  if (
    !BARE_SAFE.test(text) ||
    text.includes(',') ||
    (text.includes('{') && text.replace(PLACEHOLDER, '').includes('{'))
  ) {
    return choice.spelling === 'double' ? doubleQuote(text) : singleQuote(text);
  }
  const positions = editablePositions(text);
  const at = positions[choice.at % Math.max(positions.length, 1)];
  const before = at === undefined ? text : text.slice(0, at);
  const after = at === undefined ? '' : text.slice(at);
  const letter = at === undefined ? '' : (text[at] as string);
  switch (choice.spelling) {
    case 'bare':
      return text;
    case 'single':
      return singleQuote(text);
    case 'double':
      return doubleQuote(text);
    case 'empty-quotes':
      return at === undefined ? text : `${before}''${after}`;
    case 'inner-quotes':
      return at === undefined ? text : `${before}"${letter}"${after.slice(1)}`;
    case 'backslash':
      return at === undefined ? text : `${before}\\${after}`;
    case 'line-split':
      return at === undefined || at === 0 ? text : `${before}\\\n${after}`;
    case 'ansi-c':
      // Placeholders stay outside the $'…' part: `{outside}/m$'\x61'rk`.
      return at === undefined ? text : `${before}$'\\x${letter.charCodeAt(0).toString(16)}'${after.slice(1)}`;
    case 'glob':
      return word.kind === 'path' && at !== undefined ? `${before}?${after.slice(1)}` : text;
    case 'class':
      return word.kind === 'path' && at !== undefined ? `${before}[${letter}]${after.slice(1)}` : text;
  }
}

/** Spellings, plain ones first so that shrinking ends at the plainest form that still fails. */
export const wordSpelling: fc.Arbitrary<WordSpelling> = fc.oneof(
  { withCrossShrink: true },
  { weight: 6, arbitrary: fc.constant<WordSpelling>({ spelling: 'bare', at: 0 }) },
  {
    weight: 4,
    arbitrary: fc.record({
      spelling: fc.constantFrom<Spelling>(
        'single',
        'double',
        'empty-quotes',
        'inner-quotes',
        'backslash',
        'line-split',
        'ansi-c',
        'glob',
        'class',
      ),
      at: fc.nat({ max: 40 }),
    }),
  },
);

/** Literal words (`w('cat')`), paths (`p('.env')`) and shell text (`sh('~/x')`). */
export const w = (text: string): Word => ({ text, kind: 'literal' });
export const p = (text: string): Word => ({ text, kind: 'path' });
export const sh = (text: string): Word => ({ text, kind: 'shell' });
