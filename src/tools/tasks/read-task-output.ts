import { open } from 'node:fs/promises';
import type { TaskOutputChunk, WaitForTaskOptions } from './task-types.js';

/**
 * Reads the output file from byte `from` on, keeping only the last `maxBytes` (the oldest new bytes
 * are skipped and counted). Returns the chunk and the offset the read ended at.
 */
export async function readOutputTail(options: {
  readonly file: string;
  readonly from: number;
  readonly maxBytes: number;
}): Promise<{ readonly chunk: TaskOutputChunk; readonly end: number }> {
  const handle = await open(options.file, 'r');
  try {
    const { size } = await handle.stat();
    const available = Math.max(0, size - options.from);
    const length = Math.min(available, options.maxBytes);
    const position = size - length;
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return {
      chunk: {
        text: decodeFromCharBoundary(buffer.subarray(0, read)),
        skippedBytes: available - length,
        totalBytes: size,
      },
      end: position + read,
    };
  } finally {
    await handle.close();
  }
}

/** Resolves when `exited` settles, `timeoutMs` passes or the signal aborts, whichever is first. */
export function settledOrTimedOut(exited: Promise<unknown>, options: WaitForTaskOptions): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, options.timeoutMs);
    options.signal?.addEventListener('abort', done, { once: true });
    if (options.signal?.aborted) done();
    void exited.then(done);
  });
}

/** Decodes UTF-8, dropping continuation bytes cut off at the start of a tail read. */
function decodeFromCharBoundary(bytes: Buffer): string {
  let start = 0;
  while (start < bytes.length && start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString('utf8');
}
