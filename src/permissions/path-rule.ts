import { statSync } from 'node:fs';
import ignore from 'ignore';
import path from 'node:path';
import { patternsIntersect, type PatternSyntax } from './glob-intersection.js';
import { isWithin, resolveRealPath } from './path-resolution.js';
import type { RuleBehavior } from './rule-parser.js';

/** A path rule anchored to a folder, ready to match absolute paths. */
export type PathMatcher = {
  /** Whether the rule covers this absolute path. */
  matches(absolute: string): boolean;
  /** Whether the rule could cover some path below `directory` (for recursive reads of a folder). */
  mayMatchUnder(directory: string): boolean;
  /**
   * Where the rule reaches on disk: `exact` is the one path it names when it has no wildcard (a
   * trailing `/**` covers that folder whole); otherwise `under` is the deepest folder every match
   * lies in. The sandbox expands rules into mounts from this.
   */
  readonly reach: { readonly exact: string } | { readonly under: string };
  /** Whether the rule could cover some path an absolute pattern names (a glob that cannot be expanded). */
  mayMatchPattern(pattern: string, syntax: PatternSyntax): boolean;
};

/** Where a path rule's anchor points. */
export type PathAnchors = {
  /** The rule entry's root: what `/path` is relative to. */
  readonly root: string;
  /** The session's working folder: what `path` and `./path` are relative to. */
  readonly cwd: string;
  readonly homeDir: string;
  /** Compare allow rules ignoring case (case-insensitive file systems); deny and ask always do. */
  readonly caseInsensitive: boolean;
};

const GLOB_CHARS = /(^|[^\\])[*?[]/;

function isFolder(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

function escapeForGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

/**
 * Compiles a gitignore-style path rule: `//abs`, `~/home-relative`, `/root-relative`, `./cwd`
 * or bare (cwd, and any depth for a bare name). For deny and ask, a single-segment folder pattern
 * (`secrets/**`) covers that folder at any depth, as the reference documents.
 */
export function compilePathPattern(
  pattern: string,
  options: PathAnchors & { readonly behavior: RuleBehavior },
): PathMatcher {
  let base: string;
  let body: string;
  if (pattern.startsWith('//')) {
    base = path.parse(path.resolve(options.cwd)).root;
    body = `/${pattern.slice(2).replace(/^\/+/, '')}`;
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    base = options.homeDir;
    body = pattern === '~' ? '**' : `/${pattern.slice(2)}`;
  } else if (pattern.startsWith('/')) {
    base = options.root;
    body = pattern;
  } else if (pattern.startsWith('./')) {
    base = options.cwd;
    body = `/${pattern.slice(2)}`;
  } else {
    base = options.cwd;
    body = pattern;
  }
  base = path.resolve(base);
  if (options.behavior !== 'allow' && /^[^/*?[]+\/(\*\*)?$/.test(body)) body = `**/${body}`;
  if (body === '/' || body === '') body = '**';
  const ignoreCase = options.behavior !== 'allow' || options.caseInsensitive;
  const matcher = ignore({ ignorecase: ignoreCase }).add(body);
  const anchored = body.startsWith('/') || body.replace(/\/$/, '').includes('/');
  const literalSegments: string[] = [];
  if (anchored && !body.startsWith('**/')) {
    for (const segment of body.split('/').filter((part) => part !== '')) {
      if (GLOB_CHARS.test(segment)) break;
      literalSegments.push(segment);
    }
  }
  const unanchoredScope = !anchored || body.startsWith('**/');
  const wholeFolder = body.replace(/\/(\*\*)?$/, '');
  const reach =
    anchored && !unanchoredScope && !GLOB_CHARS.test(wholeFolder) && !wholeFolder.includes('\\')
      ? { exact: path.join(base, wholeFolder) }
      : { under: unanchoredScope ? base : path.join(base, ...literalSegments) };

  // A rule anchored in a symlinked folder (macOS /tmp → /private/tmp) covers both spellings.
  const realBase = resolveRealPath(base);
  const bases = realBase === undefined || realBase === base ? [base] : [base, realBase];
  const relativeTo = (absolute: string): string | undefined => {
    for (const anchor of bases) {
      if (absolute === anchor || !isWithin(absolute, anchor, { caseInsensitive: ignoreCase })) continue;
      const relative = absolute.slice(anchor.endsWith(path.sep) ? anchor.length : anchor.length + 1);
      return path.sep === '/' ? relative : relative.split(path.sep).join('/');
    }
    return undefined;
  };

  // The rule as globs over absolute paths: a name without a slash matches at any depth, and a
  // matched folder covers everything below it (gitignore).
  const relativeBody = body.replace(/\/$/, '').replace(/^\//, '');
  const forms =
    unanchoredScope && !relativeBody.startsWith('**/') ? [relativeBody, `**/${relativeBody}`] : [relativeBody];
  const join = (anchor: string, form: string) =>
    `${escapeForGlob(anchor.endsWith('/') ? anchor.slice(0, -1) : anchor)}/${form}`;
  // Everything below counts when the rule names a folder (`secrets/`, `x/**`, a glob, or a folder that exists).
  const names = (anchor: string, form: string): string[] => {
    const glob = join(anchor, form);
    const folder =
      body.endsWith('/') || GLOB_CHARS.test(form) || form.endsWith('**') || isFolder(path.join(anchor, form));
    return folder ? [glob, `${glob}/**`] : [glob];
  };
  const ruleGlobs = (): string[] => bases.flatMap((anchor) => forms.flatMap((form) => names(anchor, form)));

  return {
    reach,
    mayMatchPattern(pattern, syntax) {
      return ruleGlobs().some((glob) =>
        patternsIntersect(glob, { starCrossesSlash: false, ignoreCase: ignoreCase || syntax.ignoreCase }, pattern, {
          ...syntax,
          ignoreCase: ignoreCase || syntax.ignoreCase,
        }),
      );
    },
    matches(absolute) {
      const relative = relativeTo(absolute);
      return relative !== undefined && matcher.ignores(relative);
    },
    mayMatchUnder(directory) {
      if (bases.some((anchor) => isWithin(anchor, directory, { caseInsensitive: ignoreCase }))) return true;
      const relative = relativeTo(directory);
      if (relative === undefined) return false;
      if (matcher.ignores(relative) || unanchoredScope) return true;
      const dirSegments = relative.split('/');
      const shared = Math.min(dirSegments.length, literalSegments.length);
      for (let index = 0; index < shared; index += 1) {
        const a = dirSegments[index] as string;
        const b = literalSegments[index] as string;
        if (ignoreCase ? a.toLowerCase() !== b.toLowerCase() : a !== b) return false;
      }
      return true;
    },
  };
}
