import { closeSync, openSync, writeSync } from 'node:fs';

/** What a stream produced, as the model will see it. */
export type CollectedOutput = {
  /** The whole output, or its head and tail around a note naming the spill file. */
  readonly text: string;
  readonly totalBytes: number;
  /** Set when the output exceeded the in-memory limit: the file holding all of it. */
  readonly spilledTo: string | undefined;
};

/** Options for {@link createOutputCollector}. */
export type OutputCollectorOptions = {
  /** Bytes held in memory; past this the output goes to `spillFile`. */
  readonly limitBytes: number;
  /** The file the whole output is written to once it passes the limit. */
  readonly spillFile: string;
};

/** Accumulates one output stream with bounded memory. */
export type OutputCollector = {
  write(chunk: Buffer): void;
  /** Closes the spill file (if any) and renders the output. Call once. */
  finish(): CollectedOutput;
};

/**
 * Creates a collector that keeps at most `limitBytes` in memory: below the limit it keeps
 * everything; past it, the whole output streams to the spill file and only the first and last
 * halves of the limit stay in memory for the model's view. File writes are synchronous on
 * purpose: they go to the page cache, and this bounds memory without backpressure plumbing.
 */
export function createOutputCollector(options: OutputCollectorOptions): OutputCollector {
  const headLimit = Math.floor(options.limitBytes / 2);
  const tailLimit = options.limitBytes - headLimit;
  let chunks: Buffer[] = [];
  let buffered = 0;
  let total = 0;
  let fd: number | undefined;
  let head: Buffer | undefined;
  let tail: Buffer[] = [];
  let tailSize = 0;

  const pushTail = (chunk: Buffer) => {
    tail.push(chunk);
    tailSize += chunk.length;
    while (tail.length > 1 && tailSize - (tail[0]?.length ?? 0) >= tailLimit) {
      tailSize -= tail.shift()?.length ?? 0;
    }
  };

  // Once the spill file fails (disk full, folder removed), only the head and tail are kept; the
  // failure must not escape from a stream's data handler.
  let spillError: string | undefined;
  const spill = (bytes: Buffer) => {
    if (spillError !== undefined) return;
    try {
      fd ??= openSync(options.spillFile, 'w', 0o600);
      writeSync(fd, bytes);
    } catch (error) {
      spillError = error instanceof Error ? error.message : String(error);
    }
  };

  return {
    write(chunk) {
      total += chunk.length;
      if (head !== undefined) {
        spill(chunk);
        pushTail(chunk);
        return;
      }
      chunks.push(chunk);
      buffered += chunk.length;
      if (buffered <= options.limitBytes) return;
      const all = Buffer.concat(chunks);
      chunks = [];
      buffered = 0;
      spill(all);
      head = Buffer.from(all.subarray(0, headLimit));
      pushTail(Buffer.from(all.subarray(headLimit)));
    },

    finish() {
      if (head === undefined) {
        return { text: Buffer.concat(chunks).toString('utf8'), totalBytes: total, spilledTo: undefined };
      }
      if (fd !== undefined) {
        try {
          closeSync(fd);
        } catch (error) {
          spillError ??= error instanceof Error ? error.message : String(error);
        }
      }
      const tailBytes = Buffer.concat(tail);
      const kept = tailBytes.subarray(Math.max(0, tailBytes.length - tailLimit));
      const headText = cutToCharEnd(head ?? Buffer.alloc(0));
      const tailText = cutToCharStart(kept);
      const omitted = total - (head?.length ?? 0) - kept.length;
      const where =
        spillError === undefined
          ? `the full output (${total} bytes) is in ${options.spillFile}; Read it or Grep it rather than re-running the command`
          : `the full output (${total} bytes) could not be saved (${spillError}); re-run the command with its output filtered or redirected to a file`;
      const note = `\n\n... [${omitted} bytes omitted; ${where}] ...\n\n`;
      tail = [];
      const spilledTo = spillError === undefined ? options.spillFile : undefined;
      return { text: `${headText}${note}${tailText}`, totalBytes: total, spilledTo };
    },
  };
}

/** Drops a UTF-8 sequence cut off at the end of `bytes`. */
function cutToCharEnd(bytes: Buffer): string {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  return bytes.subarray(0, end).toString('utf8');
}

/** Drops continuation bytes cut off at the start of `bytes`. */
function cutToCharStart(bytes: Buffer): string {
  let start = 0;
  while (start < bytes.length && start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString('utf8');
}
