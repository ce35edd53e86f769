import { createHash } from 'node:crypto';
import { TextDecoder } from 'node:util';
import type { FileHandle } from 'node:fs/promises';
import { detectBom, type TextEncodingName } from '../fs-helpers/text-codec.js';

/** Options for {@link readTextFile}. */
export type ReadTextFileOptions = {
  /** An open handle on a regular file; read from its start. */
  readonly handle: FileHandle;
  /** First line to show, 1-based. */
  readonly offset: number;
  /** Most lines to show. */
  readonly limit: number;
  /** Lines longer than this are cut, with a marker. */
  readonly maxLineChars: number;
  /** Output stops (at a line boundary) once it would pass this many characters. */
  readonly maxOutputChars: number;
  readonly signal: AbortSignal;
};

/** A range of a text file, numbered like `cat -n`, plus what the write guard records. */
export type TextFileRange = {
  readonly ok: true;
  /** Numbered lines: the line number right-aligned in six columns, a tab, the line. */
  readonly numbered: string;
  readonly startLine: number;
  readonly lineCount: number;
  readonly totalLines: number;
  /** True when output stopped at `maxOutputChars` before `limit` lines. */
  readonly cutAtOutputLimit: boolean;
  readonly cutLines: number;
  readonly hash: string;
  readonly size: number;
  readonly encoding: TextEncodingName;
};

/** Why the bytes are not readable text. */
export type TextFileRefusal = { readonly ok: false; readonly reason: 'binary' | 'invalid-encoding' };

const CHUNK_BYTES = 64 * 1024;

/**
 * Streams a text file once: hashes every byte, checks the encoding (UTF-8 without NUL bytes, or
 * UTF-16 announced by a BOM), counts lines, and keeps only the requested range, each line cut to
 * `maxLineChars`. Memory stays bounded by the range, whatever the file's size.
 */
export async function readTextFile(options: ReadTextFileOptions): Promise<TextFileRange | TextFileRefusal> {
  const { handle, offset, limit, maxLineChars, signal } = options;
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const lastLine = offset + limit - 1;
  const kept: string[] = [];
  let outputChars = 0;
  let cutAtOutputLimit = false;
  let cutLines = 0;
  let lineNumber = 1;
  let pending = '';
  let pendingCut = false;
  let size = 0;
  let decoder: TextDecoder | undefined;
  let encoding: TextEncodingName = 'utf-8';
  let checkNul = true;

  const finishLine = (line: string, cut: boolean) => {
    if (lineNumber >= offset && lineNumber <= lastLine && !cutAtOutputLimit) {
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      const shown =
        cut || text.length > maxLineChars
          ? `${text.slice(0, maxLineChars)}… [line cut at ${maxLineChars} characters]`
          : text;
      const row = `${String(lineNumber).padStart(6)}\t${shown}`;
      if (outputChars + row.length + 1 > options.maxOutputChars && kept.length > 0) {
        cutAtOutputLimit = true;
      } else {
        if (shown !== text) cutLines++;
        kept.push(row);
        outputChars += row.length + 1;
      }
    }
    lineNumber++;
  };

  const consume = (text: string) => {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const piece = text.slice(start, newline);
      finishLine(pendingCut ? pending : pending + piece, pendingCut || pending.length + piece.length > maxLineChars);
      pending = '';
      pendingCut = false;
      start = newline + 1;
    }
    if (start < text.length && !pendingCut) {
      pending += text.slice(start);
      // Only the first maxLineChars (+1, to know it was cut) characters of a line are ever shown.
      if (pending.length > maxLineChars + 1) {
        pending = pending.slice(0, maxLineChars + 1);
        pendingCut = true;
      }
    }
  };

  for (;;) {
    if (signal.aborted) throw signal.reason;
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    let chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    if (decoder === undefined) {
      const bom = detectBom(chunk);
      encoding = bom?.encoding ?? 'utf-8';
      checkNul = encoding === 'utf-8';
      decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      if (bom) chunk = chunk.subarray(bom.length);
    }
    if (checkNul && chunk.includes(0)) return { ok: false, reason: 'binary' };
    size += bytesRead;
    try {
      consume(decoder.decode(chunk, { stream: true }));
    } catch {
      return { ok: false, reason: 'invalid-encoding' };
    }
  }
  try {
    if (decoder !== undefined) consume(decoder.decode());
  } catch {
    return { ok: false, reason: 'invalid-encoding' };
  }
  if (pending.length > 0 || pendingCut) finishLine(pending, pendingCut);
  const totalLines = lineNumber - 1;
  return {
    ok: true,
    numbered: kept.join('\n'),
    startLine: offset,
    lineCount: kept.length,
    totalLines,
    cutAtOutputLimit,
    cutLines,
    hash: hash.digest('hex'),
    size,
    encoding,
  };
}
