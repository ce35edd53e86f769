import { JsonSyntaxError, readJsonString } from './read-json-string.js';

/** Joins the keys of a path into one map key (no JSON key contains it unescaped). */
export const PATH_SEPARATOR = '\u0000';

/** The key of `path` in {@link JsonRead.offsets}. */
export function pathKey(path: readonly PropertyKey[]): string {
  return path.map(String).join(PATH_SEPARATOR);
}

/** A JSON text read: its value, where each value starts, and keys written twice. */
export type JsonRead = {
  readonly value: unknown;
  /** The offset of the value at each path (keyed by {@link pathKey}). */
  readonly offsets: ReadonlyMap<string, number>;
  /** Keys written twice in one object, by path key, with the offset of the later one. */
  readonly duplicates: readonly { readonly key: string; readonly offset: number }[];
};

const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/**
 * Reads `text` as one JSON value (RFC 8259; a leading byte-order mark is skipped) by recursive
 * descent. Objects get a null prototype, so `__proto__` and `toString` are plain keys. Throws
 * {@link JsonSyntaxError} at the offending offset; a document nested deeply enough to exhaust the
 * stack is reported the same way, as nested too deeply.
 */
export function readJsonValue(text: string): JsonRead {
  const offsets = new Map<string, number>();
  const duplicates: { key: string; offset: number }[] = [];
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, index);
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
    const read = readJsonString(text, index);
    index = read.end;
    return read.value;
  };
  const parseNumber = (): number => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
    if (!match) return fail(`unexpected ${describeHere()}`);
    index += match[0].length;
    return Number(match[0]);
  };
  /** The items of an object or array up to `close`, each read by `item`. */
  const parseItems = (close: '}' | ']', item: () => void): void => {
    index += 1;
    skipWhitespace();
    if (text[index] === close) {
      index += 1;
      return;
    }
    for (;;) {
      item();
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === close) {
        index += 1;
        return;
      }
      fail(`unexpected ${describeHere()}, expected ',' or '${close}'`);
    }
  };
  const parseObject = (path: PropertyKey[]): Record<string, unknown> => {
    const result = Object.create(null) as Record<string, unknown>;
    parseItems('}', () => {
      skipWhitespace();
      if (text[index] !== '"') fail(`unexpected ${describeHere()}, expected a double-quoted property name`);
      const keyOffset = index;
      const key = parseString();
      skipWhitespace();
      if (text[index] !== ':') fail(`unexpected ${describeHere()}, expected ':'`);
      index += 1;
      if (Object.hasOwn(result, key)) duplicates.push({ key: pathKey([...path, key]), offset: keyOffset });
      result[key] = parseValue([...path, key]);
    });
    return result;
  };
  const parseArray = (path: PropertyKey[]): unknown[] => {
    const result: unknown[] = [];
    parseItems(']', () => void result.push(parseValue([...path, result.length])));
    return result;
  };
  const parseValue = (path: PropertyKey[]): unknown => {
    skipWhitespace();
    offsets.set(pathKey(path), index);
    const char = text[index];
    if (char === '{') return parseObject(path);
    if (char === '[') return parseArray(path);
    if (char === '"') return parseString();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return parseNumber();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, index)) {
        index += word.length;
        return value;
      }
    }
    return fail(`unexpected ${describeHere()}, expected a value`);
  };

  try {
    const value = parseValue([]);
    skipWhitespace();
    if (index < text.length) fail(`unexpected ${describeHere()} after the JSON value`);
    return { value, offsets, duplicates };
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw error;
    // A document nested deeply enough to exhaust the stack is as unreadable as a syntax error.
    throw new JsonSyntaxError('document is nested too deeply', index);
  }
}
