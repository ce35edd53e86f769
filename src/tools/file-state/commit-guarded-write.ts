import { randomBytes } from 'node:crypto';
import { fstatSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeFsError } from '../fs-helpers/file-path-checks.js';
import type { TemporaryJournal } from '../fs-helpers/temporary-files.js';
import { writeFileAtomic } from '../fs-helpers/write-file-atomic.js';
import { openFileSnapshot, sameContentState, sameFileState, type FileSnapshot } from './file-snapshot.js';
import { hashBytes, type FileReadRecord, type FileStateStore } from './file-state-store.js';
import { isErrorCode, staleMessage, type GuardedFile, type GuardFailure } from './load-guarded-file.js';

/** Options for {@link commitGuardedWrite}. */
export type CommitGuardedWriteOptions = {
  /** The model's path, for messages. */
  readonly filePath: string;
  /** The file as `loadGuardedFile` returned it: what the new content was computed from. */
  readonly file: GuardedFile;
  readonly data: Uint8Array;
  readonly store: FileStateStore;
  readonly signal: AbortSignal;
  /** Where the write's temporary file is noted before it is made. */
  readonly journal?: TemporaryJournal;
};

/**
 * Another process wrote into the file through a handle it opened before the rename, and the write
 * landed in the version this write replaced. `savedAt` holds a copy of that version.
 */
export type ConcurrentWriteNotice = { readonly savedAt: string | undefined };

/** The outcome of {@link commitGuardedWrite}. */
export type CommitGuardedWriteResult =
  | { readonly ok: true; readonly record: FileReadRecord; readonly concurrentWrite?: ConcurrentWriteNotice }
  | GuardFailure;

/**
 * Writes `data` atomically in place of `file`, repeating the guard at the last moment:
 *
 * 1. `verify` (async): the agent's record must still be the one the change was computed from, and
 *    the bytes on disk must still be exactly `file.bytes`, read with steady stats;
 * 2. `finalCheck` (sync): a `stat` must match the stats that read ended with;
 * 3. the rename, immediately after, with no await in between.
 *
 * So a change by another process that completes before step 2 is never overwritten; the window is
 * the `rename` call itself (about 10 µs on tmpfs, 0.1 ms on ext4, more on a busy disk), plus a writer
 * that opened the file before the rename and writes after it. The latter is detected right after
 * the rename (the replaced file's size or mtime moved): the result then carries
 * `concurrentWrite` with a saved copy of the replaced version, so nothing is lost silently.
 * A new file is created with an exclusive link and has no window. On success the agent's record
 * becomes the written state, so a further edit needs no new read.
 */
export async function commitGuardedWrite(options: CommitGuardedWriteOptions): Promise<CommitGuardedWriteResult> {
  const { file, store, filePath } = options;
  let snapshot: FileSnapshot | undefined;
  let replacedChanged = false;
  try {
    if (!file.exists) await mkdir(path.dirname(file.realPath), { recursive: true });
    const result = await writeFileAtomic({
      path: file.realPath,
      data: options.data,
      mode: file.exists ? file.mode : undefined,
      disposition: file.exists ? 'replace' : 'create',
      signal: options.signal,
      ...(options.journal ? { journal: options.journal } : {}),
      verify: file.exists
        ? async (signal) => {
            const record = store.get(file.realPath);
            if (record === undefined || record.hash !== file.hash) return staleMessage(filePath);
            try {
              snapshot = await openFileSnapshot(file.realPath, signal);
            } catch (error) {
              if (isErrorCode(error, 'ENOENT'))
                return `${filePath} was deleted since you read it. Check whether it should still exist before writing it again.`;
              throw error;
            }
            return snapshot.steady && snapshot.bytes.equals(file.bytes) ? undefined : staleMessage(filePath);
          }
        : undefined,
      finalCheck: file.exists
        ? () =>
            snapshot !== undefined && sameFileState(snapshot.stats, statSync(file.realPath, { bigint: true }))
              ? undefined
              : staleMessage(filePath)
        : undefined,
      afterCommit: () => {
        if (snapshot !== undefined)
          replacedChanged = !sameContentState(snapshot.stats, fstatSync(snapshot.handle.fd, { bigint: true }));
      },
    });
    if (!result.ok) {
      switch (result.reason) {
        case 'verify-failed':
          return { ok: false, message: result.message };
        case 'exists':
          return {
            ok: false,
            message: `${filePath} was created by another process while you were writing it. Read it, then decide how to change it.`,
          };
        case 'aborted':
          return { ok: false, message: `The write to ${filePath} was aborted; the file is unchanged.` };
      }
    }
    const record: FileReadRecord = {
      hash: hashBytes(options.data),
      mtimeMs: result.mtimeMs,
      size: result.size,
      partial: false,
      recordedAtMs: Date.now(),
    };
    store.set(file.realPath, record);
    // Look at the replaced version once more, after the folder sync: a writer that opened it
    // before the rename may have been slower to write than the first look.
    if (snapshot !== undefined && !replacedChanged)
      replacedChanged = !sameContentState(snapshot.stats, await snapshot.handle.stat({ bigint: true }));
    if (replacedChanged && snapshot !== undefined) {
      return { ok: true, record, concurrentWrite: { savedAt: await saveReplacedVersion(snapshot, file.realPath) } };
    }
    return { ok: true, record };
  } catch (error) {
    return { ok: false, message: `${describeFsError(error, filePath)} The file was left unchanged.` };
  } finally {
    await snapshot?.handle.close();
  }
}

/** Copies the replaced version (with the other process's late write) to a temporary folder. */
async function saveReplacedVersion(snapshot: FileSnapshot, realPath: string): Promise<string | undefined> {
  try {
    const { size } = await snapshot.handle.stat();
    const bytes = Buffer.alloc(size);
    await snapshot.handle.read(bytes, 0, size, 0);
    const folder = path.join(os.tmpdir(), 'toolplane-conflicts');
    await mkdir(folder, { recursive: true });
    const saved = path.join(folder, `${path.basename(realPath)}.${Date.now()}-${randomBytes(4).toString('hex')}`);
    await writeFile(saved, bytes);
    return saved;
  } catch {
    return undefined;
  }
}

/** A warning for the model when {@link commitGuardedWrite} reports a concurrent write. */
export function describeConcurrentWrite(filePath: string, notice: ConcurrentWriteNotice): string {
  const saved =
    notice.savedAt !== undefined ? ` The replaced version, with that change, is saved at ${notice.savedAt}.` : '';
  return `Warning: another process wrote to ${filePath} at the same moment this change was saved; its write went to the version this change replaced and is not in the file now.${saved} Read the file and reconcile the two before going on.`;
}
