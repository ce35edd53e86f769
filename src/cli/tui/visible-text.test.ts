import { describe, expect, it } from 'vitest';
import { hasInvisible, visibleSegments, visibleText } from './visible-text.js';

describe('visibleText', () => {
  it('leaves ordinary text, spaces, unicode letters and emoji alone', () => {
    const text = 'git commit -m "héllo wörld 日本 🎉" && ls';
    expect(visibleText(text)).toBe(text);
    expect(hasInvisible(text)).toBe(false);
  });

  it('names C0 controls, escape and DEL', () => {
    expect(visibleText('a\x1b[31mred\x07')).toBe('a\\x1b[31mred\\x07');
    expect(visibleText('tab\there\rback\0nul\x7f')).toBe('tab\\there\\rback\\0nul\\x7f');
  });

  it('keeps line feeds by default and names them on request', () => {
    expect(visibleText('one\ntwo')).toBe('one\ntwo');
    expect(visibleText('one\ntwo', { newlines: 'escape' })).toBe('one\\ntwo');
    expect(hasInvisible('one\ntwo')).toBe(false);
    expect(hasInvisible('one\ntwo', { newlines: 'escape' })).toBe(true);
  });

  it('names every bidi override and isolate', () => {
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
    for (const code of bidi) {
      const shown = visibleText(`x${String.fromCodePoint(code)}y`);
      expect(shown).toBe(`x<U+${code.toString(16).toUpperCase().padStart(4, '0')}>y`);
    }
  });

  it('names zero-width and other default-ignorable characters', () => {
    expect(visibleText('r\u200Bm \u200C\u200D\uFEFF-rf')).toBe('r<U+200B>m <U+200C><U+200D><U+FEFF>-rf');
    expect(visibleText('a\u2060b\u00ADc\u180Ed\uFE0Fe\u3164f')).toBe('a<U+2060>b<U+00AD>c<U+180E>d<U+FE0F>e<U+3164>f');
  });

  it('names non-ASCII spaces, separators, C1 controls, tags, private use and lone surrogates', () => {
    expect(visibleText('a\u00A0b\u3000c\u2028d\u2029e')).toBe('a<U+00A0>b<U+3000>c<U+2028>d<U+2029>e');
    expect(visibleText('\u0085\u009B')).toBe('<U+0085><U+009B>');
    expect(visibleText('x\u{E0041}\u{E007F}')).toBe('x<U+E0041><U+E007F>');
    expect(visibleText('\uE000')).toBe('<U+E000>');
    expect(visibleText('a\uD800b')).toBe('a<U+D800>b');
  });

  it('never removes characters: the visible text shows the whole command', () => {
    const command = 'echo safe\u202E; rm -rf ~ #\u202C'.repeat(50);
    const shown = visibleText(command);
    expect(shown.split('<U+202E>')).toHaveLength(51);
    expect(shown.replaceAll('<U+202E>', '').replaceAll('<U+202C>', '')).toBe(
      command.replaceAll('\u202E', '').replaceAll('\u202C', ''),
    );
  });

  it('splits into plain and escaped segments so renderers can style the names', () => {
    expect(visibleSegments('a\x1bb\\x1b')).toEqual([
      { text: 'a', escaped: false },
      { text: '\\x1b', escaped: true },
      { text: 'b\\x1b', escaped: false },
    ]);
    expect(visibleSegments('')).toEqual([]);
  });
});
