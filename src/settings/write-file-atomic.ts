import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Options for {@link writeFileAtomic}. */
export type WriteFileAtomicOptions = {
  readonly path: string;
  readonly text: string;
  /** Permission bits for a file that does not exist yet (default: 0o666 less the umask). */
  readonly newFileMode?: number;
  readonly signal?: AbortSignal;
};

/**
 * Writes a settings file so readers see either the old or the new content, never a part. The
 * npm package `write-file-atomic` does the work: it writes a temporary file beside the target,
 * fsyncs it, gives it the existing file's mode (a 0600 settings file stays 0600) and owner, and
 * renames it over the target. A symlinked settings file is written at its target, so the link
 * stays a link (people keep settings in a dotfiles repository). Creates the folder if needed;
 * the temporary file is removed when anything fails.
 */
export async function writeFileAtomic(options: WriteFileAtomicOptions): Promise<void> {
  const { path, text, signal } = options;
  signal?.throwIfAborted();
  await mkdir(dirname(path), { recursive: true });
  let mode: number | undefined;
  if (options.newFileMode !== undefined) {
    // Only for a new file: an existing file keeps its own mode, whatever the caller would pick.
    const existing = await stat(path).catch(() => undefined);
    if (existing === undefined) mode = options.newFileMode;
  }
  signal?.throwIfAborted();
  // Loaded on first write: most runs never write settings, and cold start counts.
  const { default: writeFileAtomicPackage } = await import('write-file-atomic');
  await writeFileAtomicPackage(path, text, { encoding: 'utf8', ...(mode === undefined ? {} : { mode }) });
}
