import path from 'node:path';

/**
 * Drops the lines of files that permission rules deny reading. With a deny filter, paths are
 * NUL-terminated in content and count modes (`--null`) so that they parse exactly; the line is
 * given back in ripgrep's usual `path:` / `path-` form. Returns the line to keep, or `undefined`
 * for a withheld file (counted in `withheld`).
 */
export function createDeniedFilter(options: {
  readonly denied: (absolutePath: string) => boolean;
  readonly cwd: string;
  readonly nulPaths: boolean;
}): { readonly filter: (raw: string) => string | undefined; readonly withheld: () => number } {
  const withheldFiles = new Set<string>();
  const filter = (raw: string): string | undefined => {
    const nul = options.nulPaths ? raw.indexOf('\0') : -1;
    const file = options.nulPaths ? (nul === -1 ? undefined : raw.slice(0, nul)) : raw;
    if (file === undefined) return raw;
    if (options.denied(path.resolve(options.cwd, file))) {
      withheldFiles.add(file);
      return undefined;
    }
    if (nul === -1) return raw;
    const rest = raw.slice(nul + 1);
    const separator = /^\d+([:-])/.exec(rest)?.[1] ?? ':';
    return `${file}${separator}${rest}`;
  };
  return { filter, withheld: () => withheldFiles.size };
}
