import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { describeError } from '../errors/index.js';

/** A small text file's content, or why it was not read. */
export type SmallFile = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Reads a small UTF-8 file a repository may have planted (a command or agent file): only a regular
 * file — a link to `/dev/zero`, `/dev/stdin` or a FIFO is refused, never read or waited on
 * (`O_NONBLOCK` keeps the open itself from blocking) — and at most `maxBytes`, however the file
 * grows while it is read. Errors become reasons, never exceptions.
 */
export function readSmallFile(file: string, maxBytes: number): SmallFile {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    return { ok: false, reason: `cannot be read (${describeError(error)})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'is not a regular file' };
    if (stat.size > maxBytes) return { ok: false, reason: `${stat.size} bytes is too large (at most ${maxBytes})` };
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return { ok: false, reason: `grew past ${maxBytes} bytes while it was read` };
    return { ok: true, text: buffer.toString('utf8', 0, length) };
  } catch (error) {
    return { ok: false, reason: `cannot be read (${describeError(error)})` };
  } finally {
    closeSync(fd);
  }
}
