import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Options for {@link writeFileAtomic}. */
export type WriteFileAtomicOptions = {
  readonly path: string;
  readonly text: string;
  readonly signal?: AbortSignal;
};

/**
 * Writes a file so readers see either the old or the new content, never a part: the text goes to
 * a temporary file in the same folder, which is then renamed over the target. Creates the folder
 * if needed; removes the temporary file when anything fails.
 */
export async function writeFileAtomic(options: WriteFileAtomicOptions): Promise<void> {
  const { path, text, signal } = options;
  signal?.throwIfAborted();
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx', signal });
    signal?.throwIfAborted();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
