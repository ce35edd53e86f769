import { constants } from 'node:fs';
import { access, mkdir, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeText, describeNotText, type TextFormat } from '../fs-helpers/text-codec.js';
import { describeFsError, describeNotRegularFile } from '../fs-helpers/file-path-checks.js';
import { writeFileAtomic } from '../fs-helpers/write-file-atomic.js';
import { hashBytes, type FileReadRecord, type FileStateStore } from './file-state-store.js';

/** Largest file Edit, Write and NotebookEdit will load to change (bytes). */
export const MAX_GUARDED_FILE_BYTES = 64 * 1024 * 1024;

/** A file as loaded for a guarded write: its state on disk, checked against what the model read. */
export type GuardedFile =
  | { readonly exists: false; readonly realPath: string }
  | {
      readonly exists: true;
      readonly realPath: string;
      readonly bytes: Buffer;
      readonly hash: string;
      readonly text: string;
      readonly format: TextFormat;
      /** Permission bits, kept by the write. */
      readonly mode: number;
    };

/** Why a guarded write refuses. `message` is for the model. */
export type GuardFailure = { readonly ok: false; readonly message: string };

/** What the write needs from the earlier read. */
export type ReadRequirement = 'any-read' | 'full-read';

/** Options for {@link loadGuardedFile}. */
export type LoadGuardedFileOptions = {
  readonly filePath: string;
  readonly store: FileStateStore;
  /** `full-read` for overwriting a whole file (Write), `any-read` when a partial read is enough (Edit). */
  readonly requirement: ReadRequirement;
  readonly signal: AbortSignal;
};

/**
 * Loads the file a write will change and checks the guard: an existing file must have been read
 * by this agent, must not have changed since (size, mtime and content hash), must be writable,
 * and must be UTF-8 or UTF-16 with a BOM. A missing file comes back as `exists: false`.
 */
export async function loadGuardedFile(options: LoadGuardedFileOptions): Promise<{ readonly ok: true; readonly file: GuardedFile } | GuardFailure> {
  const { filePath, store } = options;
  let realPath: string;
  try {
    realPath = await realpath(filePath);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { ok: true, file: { exists: false, realPath: await resolveMissing(filePath) } };
    return { ok: false, message: describeFsError(error, filePath) };
  }
  try {
    const stats = await stat(realPath);
    if (stats.isDirectory()) return { ok: false, message: describeNotRegularFile(filePath, 'directory') };
    if (!stats.isFile()) return { ok: false, message: describeNotRegularFile(filePath, 'special') };
    const record = store.get(realPath);
    if (record === undefined) {
      return { ok: false, message: `${filePath} has not been read yet. Read it first with Read, then retry.` };
    }
    if (options.requirement === 'full-read' && record.partial) {
      return {
        ok: false,
        message: `You have read only part of ${filePath}. Read the whole file (Read without offset and limit) before overwriting it, or use Edit to change a part.`,
      };
    }
    if (stats.size > MAX_GUARDED_FILE_BYTES) {
      return { ok: false, message: `${filePath} is ${stats.size} bytes, over the ${MAX_GUARDED_FILE_BYTES}-byte limit for editing. Use Bash (for example sed) to change a file this large.` };
    }
    // A file with no write bit at all is marked read-only on purpose; respect that even as root.
    const writable = (stats.mode & 0o222) !== 0 && (await access(realPath, constants.W_OK).then(() => true, () => false));
    if (!writable) {
      return { ok: false, message: `${filePath} is not writable (read-only or owned by someone else). Ask the person to change its permissions, or write elsewhere.` };
    }
    const bytes = await readWhole(realPath, options.signal);
    const hash = hashBytes(bytes);
    if (record.hash !== hash || record.size !== bytes.length || record.mtimeMs !== stats.mtimeMs) {
      return { ok: false, message: staleMessage(filePath) };
    }
    const decoded = decodeText(bytes);
    if (!decoded.ok) return { ok: false, message: describeNotText(decoded.reason, filePath) };
    return {
      ok: true,
      file: { exists: true, realPath, bytes, hash, text: decoded.text, format: decoded.format, mode: stats.mode & 0o7777 },
    };
  } catch (error) {
    return { ok: false, message: describeFsError(error, filePath) };
  }
}

/** Options for {@link commitGuardedWrite}. */
export type CommitGuardedWriteOptions = {
  /** The model's path, for messages. */
  readonly filePath: string;
  /** The file as {@link loadGuardedFile} returned it: what the new content was computed from. */
  readonly file: GuardedFile;
  readonly data: Uint8Array;
  readonly store: FileStateStore;
  readonly signal: AbortSignal;
};

/**
 * Writes `data` atomically in place of `file`, repeating the guard just before the rename: the
 * agent's record must still be the one the change was computed from and the bytes on disk must
 * still be exactly `file.bytes` (a new file must still be absent). On success the record is
 * replaced by the written state, so a further edit needs no new read.
 */
export async function commitGuardedWrite(options: CommitGuardedWriteOptions): Promise<{ readonly ok: true; readonly record: FileReadRecord } | GuardFailure> {
  const { file, store, filePath } = options;
  try {
    if (!file.exists) await mkdir(path.dirname(file.realPath), { recursive: true });
    const result = await writeFileAtomic({
      path: file.realPath,
      data: options.data,
      mode: file.exists ? file.mode : undefined,
      disposition: file.exists ? 'replace' : 'create',
      signal: options.signal,
      verify: file.exists ? (signal) => verifyUnchanged({ file, store, filePath, signal }) : undefined,
    });
    if (!result.ok) {
      switch (result.reason) {
        case 'verify-failed':
          return { ok: false, message: result.message };
        case 'exists':
          return { ok: false, message: `${filePath} was created by another process while you were writing it. Read it, then decide how to change it.` };
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
    return { ok: true, record };
  } catch (error) {
    return { ok: false, message: `${describeFsError(error, filePath)} The file was left unchanged.` };
  }
}

type VerifyOptions = {
  readonly file: Extract<GuardedFile, { exists: true }>;
  readonly store: FileStateStore;
  readonly filePath: string;
  readonly signal: AbortSignal;
};

/** The final staleness check: the record, then the bytes on disk, compared with what was loaded. */
async function verifyUnchanged(options: VerifyOptions): Promise<string | undefined> {
  const { file, filePath } = options;
  const record = options.store.get(file.realPath);
  if (record === undefined || record.hash !== file.hash) return staleMessage(filePath);
  let bytes: Buffer;
  try {
    bytes = await readWhole(file.realPath, options.signal);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return `${filePath} was deleted since you read it. Check whether it should still exist before writing it again.`;
    throw error;
  }
  if (bytes.length !== file.bytes.length || !bytes.equals(file.bytes)) return staleMessage(filePath);
  return undefined;
}

/** Reads a regular file whole, refusing to follow it into a FIFO or device (non-blocking open). */
async function readWhole(realPath: string, signal: AbortSignal): Promise<Buffer> {
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Object.assign(new Error(`${realPath} is not a regular file`), { code: 'EISDIR' });
    return await handle.readFile({ signal });
  } finally {
    await handle.close();
  }
}

async function resolveMissing(filePath: string): Promise<string> {
  const resolved = path.resolve(filePath);
  try {
    return path.join(await realpath(path.dirname(resolved)), path.basename(resolved));
  } catch {
    return resolved;
  }
}

/** The message for a file that changed on disk since the model read it. */
export function staleMessage(filePath: string): string {
  return `${filePath} has changed on disk since you last read it (edited by the person, a formatter or another process). Read it again, then redo your change against its current content.`;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
