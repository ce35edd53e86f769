import { constants, type BigIntStats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A file read whole through a handle that stays open, with its stats before and after the read. */
export type FileSnapshot = {
  readonly handle: FileHandle;
  readonly bytes: Buffer;
  /** Stats after the read. */
  readonly stats: BigIntStats;
  /** False when the stats changed during the read: the bytes may mix two versions. */
  readonly steady: boolean;
};

/**
 * Opens a regular file (non-blocking, so a FIFO swapped in cannot hang us), reads it whole and
 * keeps the handle open; the caller closes it. Throws EISDIR-coded errors for anything that is
 * not a regular file, and the Node error for I/O failures.
 */
export async function openFileSnapshot(realPath: string, signal: AbortSignal): Promise<FileSnapshot> {
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const before = await handle.stat({ bigint: true });
    if (!before.isFile()) throw Object.assign(new Error(`${realPath} is not a regular file`), { code: 'EISDIR' });
    const bytes = await handle.readFile({ signal });
    const stats = await handle.stat({ bigint: true });
    return { handle, bytes, stats, steady: sameFileState(before, stats) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads a file whole as {@link openFileSnapshot} does, and closes it. */
export async function readFileSnapshot(realPath: string, signal: AbortSignal): Promise<Omit<FileSnapshot, 'handle'>> {
  const snapshot = await openFileSnapshot(realPath, signal);
  await snapshot.handle.close();
  return { bytes: snapshot.bytes, stats: snapshot.stats, steady: snapshot.steady };
}

/** Same inode, size, modification and change times: nothing wrote to or replaced the file in between. */
export function sameFileState(before: BigIntStats, after: BigIntStats): boolean {
  return (
    sameContentState(before, after) &&
    before.ino === after.ino &&
    before.dev === after.dev &&
    before.ctimeNs === after.ctimeNs
  );
}

/**
 * Same size and modification time. For an inode that was just replaced by a rename, whose change
 * time moves when it is unlinked, this is what says whether someone still wrote into it.
 */
export function sameContentState(before: BigIntStats, after: BigIntStats): boolean {
  return before.size === after.size && before.mtimeNs === after.mtimeNs;
}
