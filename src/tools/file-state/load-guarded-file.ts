import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeText, describeNotText, type TextFormat } from '../fs-helpers/text-codec.js';
import { describeFsError, describeNotRegularFile } from '../fs-helpers/file-path-checks.js';
import { readFileSnapshot } from './file-snapshot.js';
import { hashBytes, type FileStateStore } from './file-state-store.js';

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
export async function loadGuardedFile(
  options: LoadGuardedFileOptions,
): Promise<{ readonly ok: true; readonly file: GuardedFile } | GuardFailure> {
  const { filePath, store } = options;
  let realPath: string;
  try {
    realPath = await realpath(filePath);
  } catch (error) {
    if (isErrorCode(error, 'ENOENT'))
      return { ok: true, file: { exists: false, realPath: await resolveMissing(filePath) } };
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
        message: `You have read only part of ${filePath}. Read the whole file before overwriting it (Read without offset; for a file over 2,000 lines pass a limit at least as large as its line count), or use Edit to change a part.`,
      };
    }
    if (stats.size > MAX_GUARDED_FILE_BYTES) {
      return {
        ok: false,
        message: `${filePath} is ${stats.size} bytes, over the ${MAX_GUARDED_FILE_BYTES}-byte limit for editing. Use Bash (for example sed) to change a file this large.`,
      };
    }
    // A file with no write bit at all is marked read-only on purpose; respect that even as root.
    const writable =
      (stats.mode & 0o222) !== 0 &&
      (await access(realPath, constants.W_OK).then(
        () => true,
        () => false,
      ));
    if (!writable) {
      return {
        ok: false,
        message: `${filePath} is not writable (read-only or owned by someone else). Ask the person to change its permissions, or write elsewhere.`,
      };
    }
    const { bytes, steady } = await readFileSnapshot(realPath, options.signal);
    const hash = hashBytes(bytes);
    if (!steady || record.hash !== hash || record.size !== bytes.length || record.mtimeMs !== stats.mtimeMs) {
      return { ok: false, message: staleMessage(filePath) };
    }
    const decoded = decodeText(bytes);
    if (!decoded.ok) return { ok: false, message: describeNotText(decoded.reason, filePath) };
    return {
      ok: true,
      file: {
        exists: true,
        realPath,
        bytes,
        hash,
        text: decoded.text,
        format: decoded.format,
        mode: stats.mode & 0o7777,
      },
    };
  } catch (error) {
    return { ok: false, message: describeFsError(error, filePath) };
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

/** True when `error` is a Node error with this `code`. */
export function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
