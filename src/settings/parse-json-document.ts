/**
 * A strict JSON parser that remembers where every value starts, so a settings error can name the
 * line and column of the bad value (Node 20's JSON.parse reports no position at all).
 */
import { JsonSyntaxError } from './read-json-string.js';
import { PATH_SEPARATOR, pathKey, readJsonValue, type JsonRead } from './read-json-value.js';

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

/**
 * Parses `text` as JSON (RFC 8259; a leading byte-order mark is skipped). Objects are created with
 * a null prototype, so keys such as `__proto__` and `toString` are plain data. Never throws.
 */
export function parseJsonDocument(text: string): JsonParseResult {
  const positionOf = textPositions(text);
  let read: JsonRead;
  try {
    read = readJsonValue(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, message: error.message, position: positionOf(Math.min(error.offset, text.length)) };
  }
  const document: JsonDocument = {
    value: read.value,
    locate(path) {
      for (let length = path.length; length >= 0; length -= 1) {
        const offset = read.offsets.get(pathKey(path.slice(0, length)));
        if (offset !== undefined) return positionOf(offset);
      }
      return positionOf(0);
    },
    duplicateKeys: read.duplicates.map((entry) => ({
      key: entry.key.split(PATH_SEPARATOR).join('.'),
      position: positionOf(entry.offset),
    })),
  };
  return { ok: true, document };
}

/** The line and column of an offset of `text`; the line starts are found on first use. */
function textPositions(text: string): (offset: number) => TextPosition {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}
