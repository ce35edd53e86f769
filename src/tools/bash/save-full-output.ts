import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, stat, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { CollectedOutput } from './output-collector.js';

/** Where the whole of a command's output is, once it passed the in-memory limit. */
export type FullOutput = { readonly path: string; readonly bytes: number };

/**
 * Puts a command's whole output in one file when a stream passed the in-memory limit: stdout,
 * then a `stderr:` section. The spill file of stdout is extended in place; when only stderr spilled,
 * `combinedFile` is written. Undefined when nothing spilled or the file cannot be written.
 */
export async function saveFullOutput(options: {
  readonly stdout: CollectedOutput;
  readonly stderr: CollectedOutput;
  readonly combinedFile: string;
}): Promise<FullOutput | undefined> {
  const { stdout, stderr } = options;
  if (stdout.spilledTo === undefined && stderr.spilledTo === undefined) return undefined;
  try {
    const path = stdout.spilledTo ?? options.combinedFile;
    if (stdout.spilledTo === undefined) await writeFile(path, stdout.text, { mode: 0o600 });
    if (stderr.totalBytes > 0) {
      // The text in memory ends as the output does (its tail is kept), so it tells whether a newline is due.
      await appendFile(path, `${stdout.totalBytes > 0 && !stdout.text.endsWith('\n') ? '\n' : ''}stderr:\n`);
      if (stderr.spilledTo === undefined) await appendFile(path, stderr.text);
      else await pipeline(createReadStream(stderr.spilledTo), createWriteStream(path, { flags: 'a' }));
    }
    return { path, bytes: (await stat(path)).size };
  } catch {
    // The head and tail kept in memory still answer the call.
    return undefined;
  }
}
