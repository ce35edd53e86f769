import path from 'node:path';
import { absolutePath, isWithin } from './path-resolution.js';
import type { ShellWord } from './shell-words.js';

/** What decides whether an `rm` target is critical. */
export type CriticalScope = {
  /** Folders the command may run in; `undefined` when unknown. */
  readonly cwds: readonly string[] | undefined;
  readonly sessionCwd: string;
  readonly homeDir: string;
  readonly additionalDirectories: readonly string[];
};

const GLOB = /[*?[]/;

function isCriticalFolder(folder: string, scope: CriticalScope): boolean {
  const normal = path.resolve(folder);
  if (normal === path.parse(normal).root) return true;
  if (path.dirname(normal) === path.parse(normal).root) return true;
  if (normal === scope.homeDir || isWithin(scope.homeDir, normal)) return true;
  if (isWithin(scope.sessionCwd, normal)) return true;
  return scope.additionalDirectories.some((folder) => isWithin(folder, normal));
}

/**
 * Why an `rm`/`rmdir` argument is a critical target, or undefined: the filesystem root, a
 * top-level folder, the home folder, the working folder or any of its parents, an additional
 * folder, a glob directly inside one of those (`rm -rf ./*`), or a target computed at run time
 * (`"$VAR"/*`, `$(…)`). No mode, rule or hook approves these.
 */
export function criticalTargetReason(word: ShellWord, scope: CriticalScope): string | undefined {
  if (!word.static) {
    const literal = word.source
      .replace(/"/g, '')
      .replace(/\$\{?[A-Za-z_@*#?$!0-9][A-Za-z0-9_]*\}?|\$\([^)]*\)|`[^`]*`/g, '');
    if (literal === '' || literal === '/' || GLOB.test(literal) || literal.startsWith('/')) {
      return `rm target ${word.source} is computed at run time and could be a critical folder`;
    }
    // The expansions may be empty: `~/$X`, `./"$X"` and `../$X` are then home, the working folder, its parent.
    const unquoted = literal.replace(/'/g, '');
    const bare = criticalTargetReason(
      { value: unquoted, static: true, glob: false, quoted: false, source: unquoted },
      scope,
    );
    return bare === undefined
      ? undefined
      : `rm target ${word.source} is computed at run time and could be a critical folder`;
  }
  const value = word.value;
  if (value === '') return 'rm with an empty target';
  // `~user` is another account's home folder; the analysis cannot tell where it is.
  if (value.startsWith('~') && !value.startsWith('~/') && value !== '~')
    return `rm target ${value} is another user's home folder`;
  const bases = scope.cwds ?? [scope.sessionCwd];
  if (scope.cwds === undefined && !path.isAbsolute(value) && !value.startsWith('~')) {
    return `rm target ${value} is relative to a folder that cannot be determined`;
  }
  for (const base of bases) {
    const absolute = absolutePath(value, { baseDir: base, homeDir: scope.homeDir });
    if (word.glob) {
      const segments = absolute.split(path.sep);
      const firstGlob = segments.findIndex((segment) => GLOB.test(segment) || segment.includes('{'));
      const folder = segments.slice(0, firstGlob).join(path.sep) || path.sep;
      if (isCriticalFolder(folder, scope)) return `rm target ${value} expands inside ${folder}, a critical folder`;
      continue;
    }
    if (isCriticalFolder(absolute, scope)) return `rm target ${value} is ${absolute}, a critical folder`;
  }
  return undefined;
}
