/** One piece of text made safe to show: either plain text or the visible name of an invisible character. */
export type VisibleSegment = { readonly text: string; readonly escaped: boolean };

// Characters that do not show as themselves: controls, format characters (bidi overrides,
// zero-width), default-ignorable ones (variation selectors, fillers, tags), line and paragraph
// separators, spaces other than U+0020, private-use and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;

const NAMED: ReadonlyMap<string, string> = new Map([
  ['\t', '\\t'],
  ['\r', '\\r'],
  ['\0', '\\0'],
]);

/** The visible name of one invisible character: `\t`, `\x1b`, `<U+202E>`. */
function nameOf(char: string): string {
  const named = NAMED.get(char);
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Splits text into plain runs and the visible names of invisible characters, so a renderer can
 * style the names apart from text that happens to look like them. Line feeds stay line feeds
 * unless `newlines` is `escape`.
 */
export function visibleSegments(
  text: string,
  options: { readonly newlines?: 'keep' | 'escape' } = {},
): readonly VisibleSegment[] {
  const keepNewlines = (options.newlines ?? 'keep') === 'keep';
  const segments: VisibleSegment[] = [];
  let plain = '';
  // Iterating a string yields code points, so astral characters (tags, private use) stay whole
  // and a lone surrogate comes out on its own.
  for (const char of text) {
    if ((char === '\n' && keepNewlines) || !INVISIBLE.test(char)) {
      plain += char;
      continue;
    }
    if (plain !== '') segments.push({ text: plain, escaped: false });
    plain = '';
    segments.push({ text: char === '\n' ? '\\n' : nameOf(char), escaped: true });
  }
  if (plain !== '') segments.push({ text: plain, escaped: false });
  return segments;
}

/**
 * Makes every invisible character of `text` visible: C0 controls and DEL as `\xHH` (`\t`, `\r`,
 * `\0` by name), everything else that does not show as itself (bidi overrides U+202A–202E and
 * U+2066–2069, zero-width U+200B–200D and U+FEFF, other format and default-ignorable characters,
 * non-ASCII spaces, separators, private use) as `<U+XXXX>`. Line feeds are kept unless
 * `newlines` is `escape`. Nothing is removed or shortened.
 */
export function visibleText(text: string, options: { readonly newlines?: 'keep' | 'escape' } = {}): string {
  return visibleSegments(text, options)
    .map((segment) => segment.text)
    .join('');
}

/** True when `text` holds a character {@link visibleText} would rename. */
export function hasInvisible(text: string, options: { readonly newlines?: 'keep' | 'escape' } = {}): boolean {
  return visibleSegments(text, options).some((segment) => segment.escaped);
}
