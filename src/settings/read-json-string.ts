/** A syntax error at a character offset of the text being parsed. */
export class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Reads the JSON string whose opening quote is at `start`: its value and the offset just past
 * the closing quote. Throws {@link JsonSyntaxError} for an unterminated string, a raw control
 * character, or an invalid escape.
 */
export function readJsonString(text: string, start: number): { readonly value: string; readonly end: number } {
  let index = start + 1;
  let value = '';
  let chunkStart = index;
  for (;;) {
    if (index >= text.length) throw new JsonSyntaxError('unterminated string', start);
    const code = text.charCodeAt(index);
    if (code === 0x22) return { value: value + text.slice(chunkStart, index), end: index + 1 };
    if (code < 0x20) throw new JsonSyntaxError('control character in string', index);
    if (code !== 0x5c) {
      index += 1;
      continue;
    }
    value += text.slice(chunkStart, index);
    const escape = text[index + 1];
    if (escape === 'u') {
      const hex = text.slice(index + 2, index + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('invalid \\u escape', index);
      value += String.fromCharCode(Number.parseInt(hex, 16));
      index += 6;
    } else if (escape !== undefined && Object.hasOwn(SIMPLE_ESCAPES, escape)) {
      value += SIMPLE_ESCAPES[escape]!;
      index += 2;
    } else {
      throw new JsonSyntaxError('invalid escape in string', index);
    }
    chunkStart = index;
  }
}
