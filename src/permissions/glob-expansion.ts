import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expandBraces, hasGlob, segmentRegExp } from './glob-patterns.js';

/**
 * Pathname expansion as bash does it, against the file system at decision time, so a word such as
 * `.en?`, `.e[n]v`, `.e{n,x}v` or `~/.ss?/id_rsa` is judged by every file it names. Bash's
 * defaults: braces first (each alternative its own word), `~/` is the home folder, `*`, `?` and
 * `[…]` match within one segment, a leading `.` must be matched by a literal `.`, and a word
 * that matches nothing stays as written. Expansion that would read too many folders or name too
 * many files gives up, and the caller treats the word as unknowable.
 */

/** The paths a word names, or why they cannot be known. */
export type Expansion = { readonly paths: readonly string[] } | { readonly unknown: string };

const MAX_FOLDERS_READ = 256;
const MAX_PATHS = 1024;

/** Escapes the characters bash's globbing and brace expansion treat specially (for quoted text). */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}]/g, '\\$&');
}

function unescape(segment: string): string {
  return segment.replace(/\\([\s\S])/g, '$1');
}

function listFolder(folder: string): readonly string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** Expands one word (no braces left) in `cwd`: absolute paths, or the word itself when nothing matches. */
function expandWord(
  word: string,
  options: { readonly cwd: string; readonly homeDir: string; budget: { folders: number } },
): Expansion {
  let text = word;
  if (text === '~' || text.startsWith('~/')) text = `${escapeGlob(options.homeDir)}${text.slice(1)}`;
  else if (text.startsWith('~')) return { unknown: `${word} names another user's home folder` };
  const absolute = text.startsWith('/');
  const segments = text.split('/').filter((segment, index) => segment !== '' || index === 0);
  let current: string[] = [absolute ? path.sep : options.cwd];
  const literal = path.resolve(options.cwd, unescape(text));
  for (const segment of segments) {
    if (segment === '') continue;
    if (!hasGlob(segment)) {
      current = current.map((folder) => path.join(folder, unescape(segment)));
      continue;
    }
    const matcher = segmentRegExp(segment);
    const explicitDot = segment.startsWith('.') || segment.startsWith('\\.');
    const next: string[] = [];
    for (const folder of current) {
      options.budget.folders -= 1;
      if (options.budget.folders < 0) return { unknown: `${word} names too many files to check` };
      const names = listFolder(folder);
      // `.*` may also name `.` and `..` (bash before 5.2 matched them).
      for (const name of explicitDot ? ['.', '..', ...names] : names) {
        if (name.startsWith('.') && !explicitDot) continue;
        if (matcher.test(name)) next.push(path.join(folder, name));
      }
      if (next.length > MAX_PATHS) return { unknown: `${word} names too many files to check` };
    }
    current = next;
    if (current.length === 0) break;
  }
  return { paths: current.length === 0 ? [literal] : current };
}

/**
 * Every path a shell word can name, resolved in `cwd`. `pattern` is the word with its quoted
 * characters escaped (see {@link escapeGlob}).
 */
export function expandPathPattern(
  pattern: string,
  options: { readonly cwd: string; readonly homeDir: string },
): Expansion {
  const words = expandBraces(pattern);
  if (words === undefined) return { unknown: `${pattern} expands to too many words` };
  const budget = { folders: MAX_FOLDERS_READ };
  const paths: string[] = [];
  for (const word of words) {
    const expanded = expandWord(word, { ...options, budget });
    if ('unknown' in expanded) return expanded;
    paths.push(...expanded.paths);
    if (paths.length > MAX_PATHS) return { unknown: `${pattern} names too many files to check` };
  }
  return { paths: [...new Set(paths)] };
}
