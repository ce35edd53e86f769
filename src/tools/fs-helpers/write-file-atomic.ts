import { linkSync, renameSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { temporaryName } from '../../contract/temporary-name.js';
import type { TemporaryJournal } from './temporary-files.js';

/** Options for {@link writeFileAtomic}. */
export type WriteFileAtomicOptions = {
  /** The file to replace or create. Must be the real path (not a symbolic link to it). */
  readonly path: string;
  readonly data: Uint8Array;
  /** Permission bits for the file; omitted, a new file gets the default (0o666 minus umask). */
  readonly mode?: number;
  /** `create`: the file must not exist yet (an atomic no-clobber link); `replace`: it may. */
  readonly disposition: 'create' | 'replace';
  readonly signal: AbortSignal;
  /**
   * Runs after the temporary file is complete and on disk, immediately before it takes the
   * target's place. A returned string cancels the write with that message; the target is untouched.
   */
  readonly verify?: (signal: AbortSignal) => Promise<string | undefined>;
  /**
   * A last synchronous check run after `verify`, with no await between it and the rename (for
   * example a `statSync` compared with what `verify` saw). A returned string cancels the write.
   */
  readonly finalCheck?: () => string | undefined;
  /** Runs synchronously right after the rename (before the folder is synced). */
  readonly afterCommit?: () => void;
  /** Notes the temporary file before it is made, so a start after a kill can sweep it. */
  readonly journal?: TemporaryJournal;
};

/** The outcome: the written file's mtime and size, or why nothing was written. */
export type WriteFileAtomicResult =
  | { readonly ok: true; readonly mtimeMs: number; readonly size: number }
  | { readonly ok: false; readonly reason: 'verify-failed' | 'exists' | 'aborted'; readonly message: string };

/**
 * Writes a file so that readers only ever see the old content or the new content: the data goes
 * to a temporary file in the same folder, is fsynced, gets its mode, then `verify` runs, then the
 * temporary file is renamed over the target (or, for `create`, hard-linked to it, which fails
 * instead of clobbering a file that appeared meanwhile) and the folder is fsynced.
 *
 * `finalCheck` and the rename run synchronously, back to back, so no other task of this process
 * can run between them. The window in which a change by another process can still be lost runs
 * from the end of `finalCheck` to the moment `rename(2)` takes effect: that one system call.
 * Measured (bench/file-tools.mjs, `guardWindow`): about 10 µs on tmpfs and about 0.1 ms on ext4,
 * growing to milliseconds when the disk is busy, since the rename waits on the journal. `create`
 * has no such window (the link fails if the file appeared meanwhile). A process
 * killed mid-write leaves the target intact and at worst a `.tp-<pid>-<hex>.tmp` file beside it
 * (noted in `journal`, for the next start's sweep).
 *
 * I/O errors (permissions, no space, …) are thrown as the Node error, after removing the
 * temporary file.
 */
export async function writeFileAtomic(options: WriteFileAtomicOptions): Promise<WriteFileAtomicResult> {
  const { signal } = options;
  if (signal.aborted) return { ok: false, reason: 'aborted', message: 'The write was aborted before it started.' };
  const folder = path.dirname(options.path);
  // A short name of its own, not the target's name plus a suffix: a 255-byte name stays writable.
  const temporary = path.join(folder, temporaryName());
  options.journal?.record(temporary);
  let committed = false;
  try {
    const handle = await open(temporary, 'wx', options.mode ?? 0o666);
    let mtimeMs: number;
    let size: number;
    try {
      await handle.writeFile(options.data);
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
      const stats = await handle.stat();
      mtimeMs = stats.mtimeMs;
      size = stats.size;
    } finally {
      await handle.close();
    }
    if (signal.aborted)
      return { ok: false, reason: 'aborted', message: 'The write was aborted; the file is unchanged.' };
    const problem = options.verify ? await options.verify(signal) : undefined;
    if (problem !== undefined) return { ok: false, reason: 'verify-failed', message: problem };
    // From here to the rename: synchronous, so nothing of ours runs in between.
    const lastProblem = options.finalCheck?.();
    if (lastProblem !== undefined) return { ok: false, reason: 'verify-failed', message: lastProblem };
    if (options.disposition === 'create') {
      try {
        linkSync(temporary, options.path);
      } catch (error) {
        if (isCode(error, 'EEXIST')) {
          return { ok: false, reason: 'exists', message: `${options.path} was created by someone else meanwhile.` };
        }
        throw error;
      }
    } else {
      renameSync(temporary, options.path);
      committed = true;
    }
    options.afterCommit?.();
    await syncFolder(folder);
    return { ok: true, mtimeMs, size };
  } finally {
    if (!committed) await unlink(temporary).catch(() => undefined);
  }
}

async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename itself has already happened.
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
