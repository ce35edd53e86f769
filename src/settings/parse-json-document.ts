/**
 * A strict JSON parser that remembers where every value starts, so a settings error can name the
 * line and column of the bad value (Node 20's JSON.parse reports no position at all).
 */

/** A 1-based line and column. */
export type TextPosition = { readonly line: number; readonly column: number };

/** A parsed document: its value and the position of any value in it. */
export type JsonDocument = {
  readonly value: unknown;
  /** The position of the value at `path`, or of its nearest ancestor that exists. */
  locate(path: readonly PropertyKey[]): TextPosition;
  /** Keys written twice in one object (the later one wins, as with JSON.parse). */
  readonly duplicateKeys: readonly { readonly key: string; readonly position: TextPosition }[];
};

export type JsonParseResult =
  | { readonly ok: true; readonly document: JsonDocument }
  | { readonly ok: false; readonly message: string; readonly position: TextPosition };

class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

const PATH_SEPARATOR = '\u0000';

function pathKey(path: readonly PropertyKey[]): string {
  return path.map(String).join(PATH_SEPARATOR);
}

/**
 * Parses `text` as JSON (RFC 8259; a leading byte-order mark is skipped). Objects are created with
 * a null prototype, so keys such as `__proto__` and `toString` are plain data. Never throws.
 */
export function parseJsonDocument(text: string): JsonParseResult {
  const offsets = new Map<string, number>();
  const duplicates: { key: string; offset: number }[] = [];
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string, at = index): never => {
    throw new JsonSyntaxError(message, at);
  };
  const skipWhitespace = (): void => {
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) index += 1;
      else return;
    }
  };
  const describeHere = (): string => (index >= text.length ? 'end of input' : `${JSON.stringify(text[index])}`);

  const parseString = (): string => {
    const start = index;
    index += 1;
    let result = '';
    let chunkStart = index;
    for (;;) {
      if (index >= text.length) fail('unterminated string', start);
      const code = text.charCodeAt(index);
      if (code === 0x22) {
        result += text.slice(chunkStart, index);
        index += 1;
        return result;
      }
      if (code < 0x20) fail('control character in string');
      if (code === 0x5c) {
        result += text.slice(chunkStart, index);
        const escape = text[index + 1];
        switch (escape) {
          case '"':
          case '\\':
          case '/':
            result += escape;
            index += 2;
            break;
          case 'b':
            result += '\b';
            index += 2;
            break;
          case 'f':
            result += '\f';
            index += 2;
            break;
          case 'n':
            result += '\n';
            index += 2;
            break;
          case 'r':
            result += '\r';
            index += 2;
            break;
          case 't':
            result += '\t';
            index += 2;
            break;
          case 'u': {
            const hex = text.slice(index + 2, index + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
            result += String.fromCharCode(Number.parseInt(hex, 16));
            index += 6;
            break;
          }
          default:
            fail('invalid escape in string');
        }
        chunkStart = index;
        continue;
      }
      index += 1;
    }
  };

  const parseNumber = (): number => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
    if (!match) return fail(`unexpected ${describeHere()}`);
    index += match[0].length;
    return Number(match[0]);
  };

  const parseValue = (path: PropertyKey[]): unknown => {
    skipWhitespace();
    offsets.set(pathKey(path), index);
    const char = text[index];
    if (char === '{') return parseObject(path);
    if (char === '[') return parseArray(path);
    if (char === '"') return parseString();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return parseNumber();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, index)) {
        index += word.length;
        return value;
      }
    }
    return fail(`unexpected ${describeHere()}, expected a value`);
  };

  const parseObject = (path: PropertyKey[]): Record<string, unknown> => {
    const result = Object.create(null) as Record<string, unknown>;
    index += 1;
    skipWhitespace();
    if (text[index] === '}') {
      index += 1;
      return result;
    }
    for (;;) {
      skipWhitespace();
      if (text[index] !== '"') fail(`unexpected ${describeHere()}, expected a double-quoted property name`);
      const keyOffset = index;
      const key = parseString();
      skipWhitespace();
      if (text[index] !== ':') fail(`unexpected ${describeHere()}, expected ':'`);
      index += 1;
      if (Object.hasOwn(result, key)) duplicates.push({ key: pathKey([...path, key]), offset: keyOffset });
      result[key] = parseValue([...path, key]);
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === '}') {
        index += 1;
        return result;
      }
      fail(`unexpected ${describeHere()}, expected ',' or '}'`);
    }
  };

  const parseArray = (path: PropertyKey[]): unknown[] => {
    const result: unknown[] = [];
    index += 1;
    skipWhitespace();
    if (text[index] === ']') {
      index += 1;
      return result;
    }
    for (;;) {
      result.push(parseValue([...path, result.length]));
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === ']') {
        index += 1;
        return result;
      }
      fail(`unexpected ${describeHere()}, expected ',' or ']'`);
    }
  };

  const lineStarts = (): number[] => {
    const starts = [0];
    for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
    return starts;
  };
  let starts: number[] | undefined;
  const positionOf = (offset: number): TextPosition => {
    starts ??= lineStarts();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };

  try {
    const value = parseValue([]);
    skipWhitespace();
    if (index < text.length) fail(`unexpected ${describeHere()} after the JSON value`);
    const document: JsonDocument = {
      value,
      locate(path) {
        for (let length = path.length; length >= 0; length -= 1) {
          const offset = offsets.get(pathKey(path.slice(0, length)));
          if (offset !== undefined) return positionOf(offset);
        }
        return positionOf(0);
      },
      duplicateKeys: duplicates.map((entry) => ({
        key: entry.key.split(PATH_SEPARATOR).join('.'),
        position: positionOf(entry.offset),
      })),
    };
    return { ok: true, document };
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      return { ok: false, message: error.message, position: positionOf(Math.min(error.offset, text.length)) };
    }
    // A document nested deeply enough to exhaust the stack is as unreadable as a syntax error.
    return { ok: false, message: 'document is nested too deeply', position: positionOf(index) };
  }
}
