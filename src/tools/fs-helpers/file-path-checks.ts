import { readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Path checks shared by the file tools: absolute paths only, no device or pseudo files, and
 * I/O errors phrased for the model.
 */

const DEVICE_PREFIXES = ['/dev/', '/proc/self/fd/', '/proc/thread-self/fd/'];
const PROC_FD_PATTERN = /^\/proc\/\d+\/(fd|fdinfo)\//;

/** `undefined` when `filePath` is absolute, else a message telling the model to send one. */
export function checkAbsolutePath(filePath: string, parameter = 'file_path'): string | undefined {
  if (filePath.length === 0) return `${parameter} is empty. Give the absolute path of the file.`;
  if (filePath.includes('\0')) return `${parameter} contains a NUL character, which no file name can hold.`;
  if (!path.isAbsolute(filePath)) {
    return `${parameter} must be an absolute path, but got ${JSON.stringify(filePath)}. Resolve it against the working folder and send the absolute path.`;
  }
  return undefined;
}

/**
 * True for device and process paths that never end or block when read (`/dev/zero`,
 * `/dev/stdin`, `/proc/self/fd/0`, …). The tools also refuse any non-regular file they stat.
 */
export function isDevicePath(filePath: string): boolean {
  const normalized = path.normalize(filePath);
  // /dev/shm is a tmpfs for ordinary files; anything else under /dev is a device or a link to one.
  if (normalized.startsWith('/dev/shm/')) return false;
  return DEVICE_PREFIXES.some((prefix) => normalized.startsWith(prefix)) || PROC_FD_PATTERN.test(normalized);
}

const PROCESS_SECRET_PATTERN =
  /^\/proc\/(?:[^/]+\/task\/)?[^/]+\/(?:environ|mem)$|^\/proc\/[^/]+\/task\/[^/]+\/(?:environ|mem)$/;

/**
 * A message when `filePath` is a process's environment or memory (`/proc/self/environ`,
 * `/proc/<pid>/mem`, …): those hold the session's credentials, so reading them is refused
 * whatever the rules say. Checked on the path given and on the path it resolves to.
 */
export function processSecretReason(filePath: string): string | undefined {
  const normalized = path.normalize(filePath);
  if (!PROCESS_SECRET_PATTERN.test(normalized)) return undefined;
  return `${filePath} is a process's environment or memory, which holds credentials; reading it is refused.`;
}

/** The message for a path that exists but is not a regular file. */
export function describeNotRegularFile(filePath: string, kind: 'directory' | 'special'): string {
  if (kind === 'directory') {
    return `${filePath} is a directory, not a file. Use Glob to find files in it (or Bash with ls to list it), then read a specific file.`;
  }
  return `${filePath} is not a regular file (a device, FIFO or socket); reading it could block or never end, so it is refused.`;
}

/** Renders a file-system error as a sentence for the model, with what to do next. */
export function describeFsError(error: unknown, filePath: string): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  switch (code) {
    case 'ENOENT':
      return `${filePath} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for ${filePath}. The file or its folder is not accessible to this process; choose another path or ask the person to change its permissions.`;
    case 'EISDIR':
      return describeNotRegularFile(filePath, 'directory');
    case 'ENOTDIR':
      return `A part of ${filePath} is a file, not a folder. Check the path.`;
    case 'EROFS':
      return `${filePath} is on a read-only file system and cannot be written.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `There is no space left to write ${filePath}. The file was left unchanged.`;
    case 'ENAMETOOLONG':
      return `The path ${filePath} is too long.`;
    case 'ELOOP':
      return `${filePath} is a symbolic link loop.`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `Could not access ${filePath}: ${message}`;
    }
  }
}

const MAX_SCANNED_ENTRIES = 5_000;

/**
 * For a missing file, a hint naming up to three files with similar names in the same folder (or
 * saying the folder itself is missing). Bounded: looks at one folder, at most 5,000 entries.
 */
export async function suggestSimilarPaths(filePath: string, signal: AbortSignal): Promise<string> {
  const folder = path.dirname(filePath);
  const wanted = path.basename(filePath).toLowerCase();
  let names: string[];
  try {
    const entries = await readdir(folder);
    names = entries.slice(0, MAX_SCANNED_ENTRIES);
  } catch {
    return ` Its folder ${folder} does not exist either; use Glob to find where the file is.`;
  }
  if (signal.aborted) return '';
  const wantedStem = stem(wanted);
  const scored = names
    .map((name) => ({ name, score: similarity(wanted, wantedStem, name.toLowerCase()) }))
    .filter((entry) => entry.score < Infinity)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 3);
  if (scored.length === 0) return ' Use Glob to find the file.';
  const list = scored.map((entry) => path.join(folder, entry.name)).join(', ');
  return ` Did you mean ${list}?`;
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function similarity(wanted: string, wantedStem: string, candidate: string): number {
  if (candidate === wanted) return 0;
  if (stem(candidate) === wantedStem) return 1;
  const limit = Math.max(2, Math.floor(wanted.length / 4));
  if (Math.abs(candidate.length - wanted.length) > limit) return Infinity;
  const distance = editDistance(wanted, candidate, limit);
  return distance <= limit ? 1 + distance : Infinity;
}

/** Levenshtein distance, giving up (returning limit + 1) once every path exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}
