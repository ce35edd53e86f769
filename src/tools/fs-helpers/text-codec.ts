import { TextDecoder } from 'node:util';

/**
 * Decoding and re-encoding of text files so a write keeps what it found: the encoding (UTF-8,
 * UTF-16 with a byte-order mark), the BOM itself and the line endings. Anything else is binary
 * and is refused rather than guessed at.
 */

/** Encodings the file tools read and write. UTF-16 is only recognised by its byte-order mark. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/** `crlf` when every line break in the file is CRLF; anything else is kept byte for byte as `lf`. */
export type LineEnding = 'lf' | 'crlf';

/** How a text file is stored on disk, so that new text can be written back the same way. */
export type TextFormat = {
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  readonly lineEnding: LineEnding;
};

/** Why bytes are not text the tools will touch. */
export type NotTextReason = 'binary' | 'invalid-encoding';

/** The outcome of {@link decodeText}: LF-normalised text for CRLF files, else the text as stored. */
export type DecodeResult =
  | { readonly ok: true; readonly text: string; readonly format: TextFormat }
  | { readonly ok: false; readonly reason: NotTextReason };

/** The format of files the tools create: UTF-8 without BOM, LF line breaks. */
export const DEFAULT_TEXT_FORMAT: TextFormat = Object.freeze({ encoding: 'utf-8', bom: false, lineEnding: 'lf' });

/** Detects a byte-order mark; returns the encoding it announces and its length in bytes. */
export function detectBom(
  bytes: Uint8Array,
): { readonly encoding: TextEncodingName; readonly length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * `crlf` when the text has at least one CRLF and no bare LF. A CR right before a CRLF (`\r\r\n`)
 * makes it `lf` (kept byte for byte): LF-normalised, it would read as a CRLF that
 * {@link encodeText} folds back into one break, dropping that CR from lines nobody edited.
 */
export function detectLineEnding(text: string): LineEnding {
  const crlf = countOccurrences(text, '\r\n');
  if (crlf === 0 || text.includes('\r\r\n')) return 'lf';
  return countOccurrences(text, '\n') === crlf ? 'crlf' : 'lf';
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) count++;
  return count;
}

/**
 * Decodes a whole file. Without a BOM the bytes must be valid UTF-8 with no NUL byte; with a
 * UTF-16 BOM they must be valid UTF-16. CRLF files come back with LF line breaks
 * (`format.lineEnding` says to restore them); the BOM is not part of `text`.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  const bom = detectBom(bytes);
  const body = bom ? bytes.subarray(bom.length) : bytes;
  if (!bom || bom.encoding === 'utf-8') {
    if (body.includes(0)) return { ok: false, reason: 'binary' };
  }
  let text: string;
  try {
    text = new TextDecoder(bom?.encoding ?? 'utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return { ok: false, reason: 'invalid-encoding' };
  }
  const lineEnding = detectLineEnding(text);
  return {
    ok: true,
    text: lineEnding === 'crlf' ? text.replaceAll('\r\n', '\n') : text,
    format: { encoding: bom?.encoding ?? 'utf-8', bom: bom !== undefined, lineEnding },
  };
}

/**
 * Encodes text for disk in `format`: CRLF files get every line break as CRLF (whatever the text
 * used), the BOM is written back, UTF-16 is written in its byte order.
 */
export function encodeText(text: string, format: TextFormat): Buffer {
  const body = format.lineEnding === 'crlf' ? text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n') : text;
  switch (format.encoding) {
    case 'utf-8': {
      const encoded = Buffer.from(body, 'utf8');
      return format.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encoded]) : encoded;
    }
    case 'utf-16le': {
      const encoded = Buffer.from(body, 'utf16le');
      return format.bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), encoded]) : encoded;
    }
    case 'utf-16be': {
      const encoded = Buffer.from(body, 'utf16le').swap16();
      return format.bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), encoded]) : encoded;
    }
  }
}

/** A sentence for the model explaining why a file is not editable or readable as text. */
export function describeNotText(reason: NotTextReason, filePath: string): string {
  switch (reason) {
    case 'binary':
      return `${filePath} looks like a binary file (it contains NUL bytes), so it cannot be shown or edited as text. Use Bash with a suitable tool (file, xxd, a format-specific converter) if you need its contents.`;
    case 'invalid-encoding':
      return `${filePath} is neither valid UTF-8 nor UTF-16 with a byte-order mark, so it is refused rather than risk corrupting it. Use Bash (for example iconv) to inspect or convert it.`;
  }
}
