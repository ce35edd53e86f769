import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Path handling for permission checks: expanding what the model wrote into an absolute path,
 * resolving symlinks (including dangling ones and not-yet-existing files), and comparing by path
 * segments, never by string prefix.
 */

const MAX_LINK_HOPS = 40;

/** Control characters, NUL, NEL, line/paragraph separators, bidi and zero-width characters. */
export const UNSAFE_CHARACTERS =
  /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** Characters no path the model supplies may contain (adds newline and tab to {@link UNSAFE_CHARACTERS}). */
export const UNSAFE_PATH_CHARACTERS = /[\u0000-\u001f\u007f\u0085\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/**
 * Turns a path the model supplied into an absolute, normalised path: `~` and `~/…` expand to
 * `homeDir`, relative paths resolve against `baseDir` (the session's folder, never the model's).
 */
export function absolutePath(input: string, options: { readonly baseDir: string; readonly homeDir: string }): string {
  let expanded = input;
  if (expanded === '~') expanded = options.homeDir;
  else if (expanded.startsWith('~/')) expanded = path.join(options.homeDir, expanded.slice(2));
  return path.resolve(options.baseDir, expanded);
}

/**
 * The real location of `absolute`: every symlink on the way resolved, dangling links followed by
 * their text, missing tail segments appended as written. `undefined` when a link loop or an
 * unreadable link makes the target unknowable.
 */
export function resolveRealPath(absolute: string): string | undefined {
  try {
    // No exception for a missing file: exceptions cost more than the system call.
    const stat = lstatSync(absolute, { throwIfNoEntry: false });
    if (stat === undefined) {
      const parent = path.dirname(absolute);
      const name = path.basename(absolute);
      if (parent === absolute) return absolute;
      if (name !== '..' && name !== '.') {
        const resolvedParent = resolveRealPath(parent);
        return resolvedParent === undefined ? undefined : path.join(resolvedParent, name);
      }
      return walkSegments(absolute);
    }
  } catch {
    return walkSegments(absolute);
  }
  try {
    return realpathSync.native(absolute);
  } catch {
    // A dangling link, a loop, or an unreadable folder: walk it by hand.
    return walkSegments(absolute);
  }
}

/** Resolves segment by segment, following links by their text (dangling ones included). */
function walkSegments(absolute: string): string | undefined {
  let pending = absolute.split(path.sep).filter((segment) => segment !== '');
  let resolved: string = path.sep;
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending[0] as string;
    pending = pending.slice(1);
    if (segment === '.') continue;
    if (segment === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, segment);
    let isLink = false;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch {
      return path.join(candidate, ...pending);
    }
    if (!isLink) {
      resolved = candidate;
      continue;
    }
    hops += 1;
    if (hops > MAX_LINK_HOPS) return undefined;
    let target: string;
    try {
      target = readlinkSync(candidate);
    } catch {
      return undefined;
    }
    const targetSegments = target.split(path.sep).filter((part) => part !== '');
    if (path.isAbsolute(target)) resolved = path.sep;
    pending = [...targetSegments, ...pending];
  }
  return resolved;
}

/** Both forms of a path that permission checks look at: as written (normalised) and its target. */
export type PathForms = {
  readonly link: string;
  /** The symlink-resolved target; `undefined` when it cannot be known (link loop). */
  readonly target: string | undefined;
};

/**
 * Resolves a model-supplied path into its link and target forms. The target is resolved from the
 * path as written, so `link/../x` follows `link` first, as the kernel does, rather than the
 * lexical shortcut that `path.resolve` takes.
 */
export function pathForms(input: string, options: { readonly baseDir: string; readonly homeDir: string }): PathForms {
  const link = absolutePath(input, options);
  let raw = input;
  if (raw === '~') raw = options.homeDir;
  else if (raw.startsWith('~/')) raw = `${options.homeDir}${path.sep}${raw.slice(2)}`;
  if (!path.isAbsolute(raw)) raw = `${options.baseDir}${path.sep}${raw}`;
  return { link, target: resolveRealPath(raw) };
}

function needsNormalizing(value: string): boolean {
  return (
    value.includes(`${path.sep}.`) ||
    value.includes(`${path.sep}${path.sep}`) ||
    (value.length > 1 && value.endsWith(path.sep))
  );
}

/**
 * Whether `child` is `parent` or lies below it, compared by whole segments (optionally ignoring
 * case): `/a/proj-evil` is not within `/a/proj`. Both must be absolute; `.`, `..` and doubled
 * separators are normalised first.
 */
export function isWithin(child: string, parent: string, options?: { readonly caseInsensitive?: boolean }): boolean {
  const normalChild = needsNormalizing(child) ? path.resolve(child) : child;
  const normalParent = needsNormalizing(parent) ? path.resolve(parent) : parent;
  const a = options?.caseInsensitive ? normalChild.toLowerCase() : normalChild;
  const b = options?.caseInsensitive ? normalParent.toLowerCase() : normalParent;
  if (a === b) return true;
  const prefix = b.endsWith(path.sep) ? b : `${b}${path.sep}`;
  return a.startsWith(prefix);
}

// The protected list has its own module, because the sandbox derives its write-protected set from it.
export { protectedPathReason } from './protected-paths.js';

const PROCESS_SECRET = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:environ|mem|cmdline)$/;

/**
 * Why a path is a process's environment, memory or command line (`/proc/<pid>/environ`,
 * `/proc/self/mem`, `/proc/1/cmdline`, …), which hold the session's credentials: never read or
 * written without a person's approval, in any mode. `undefined` for any other path.
 */
export function processSecretReason(absolute: string): string | undefined {
  return PROCESS_SECRET.test(path.posix.normalize(absolute))
    ? `${absolute} is a process's environment, memory or command line, which hold credentials`
    : undefined;
}

/**
 * Why walking a folder reaches those files: `/proc` or a folder in it, and (for tools that read
 * file contents, such as Grep) the root folder, which holds `/proc`. `undefined` otherwise.
 */
export function processFolderReason(absolute: string, options: { readonly namesOnly: boolean }): string | undefined {
  const normal = path.posix.normalize(absolute);
  if (normal === '/proc' || normal.startsWith('/proc/'))
    return `${absolute} holds processes' environments and memory, which hold credentials`;
  if (normal === '/' && !options.namesOnly)
    return `searching ${absolute} reads every process's environment under /proc, which holds credentials`;
  return undefined;
}
