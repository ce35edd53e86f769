import type { ShellWord } from './shell-words.js';

/**
 * The files a git command prints or packs, from its operands as git reads them: object names
 * with a path (`HEAD:.env`, `:0:.env`, `:.env`), pathspecs with magic (`:(top).env`, `:/.env`,
 * `:(exclude)x`, `:!x`) and pathspecs that are patterns (git matches `*`, `?` and `[…]` against
 * every path it knows, `*` across `/` too, including files only in history). A path in an object
 * name, and a `top` pathspec, is relative to the repository's top folder; `./x` and other
 * pathspecs are relative to the current folder.
 */

/** git subcommands that print or pack the content of the files their operands name. */
const CONTENT_COMMANDS: ReadonlySet<string> = new Set([
  'show',
  'cat-file',
  'blame',
  'log',
  'diff',
  'shortlog',
  'whatchanged',
  'archive',
  'grep',
  'format-patch',
  'difftool',
  'annotate',
]);

/** git's global options that take a value (`git -C dir log`). */
const GLOBAL_VALUE_OPTIONS = /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix)$/;

/** Subcommand options whose value is the next word (a pattern, a count, a name), never a path. */
const VALUE_OPTIONS =
  /^(-e|--regexp|-m|--max-count|-n|--grep|--author|--committer|-S|-G|--since|--until|--before|--after|-U|--format|--pretty|--prefix|--remote|-o|--output)$/;
/**
 * git grep's options that take the next word; elsewhere the same letters take none (`git diff -C`
 * finds copies, so the word after it is an operand). A `-f` file is a read of its own (data-path-options.ts).
 */
const GREP_VALUE_OPTIONS = /^(-f|--file|-A|-B|-C|--context|--after-context|--before-context)$/;

/** One file a git command may read. */
export type GitPath = {
  readonly word: ShellWord;
  /** Relative to the repository's top folder rather than the current folder. */
  readonly fromTop: boolean;
  /** A pattern git expands itself, against the index and history as well as the disk. */
  readonly pattern: boolean;
};

/** Reads pathspec magic: `:(top,icase)x`, `:/x`, `:!x`; `undefined` for an excluded pathspec. */
function pathspec(
  value: string,
  literalPathspecs: boolean,
): { readonly path: string; readonly fromTop: boolean; readonly pattern: boolean } | undefined {
  let path = value;
  let fromTop = false;
  let literal = literalPathspecs;
  let glob = false;
  const long = /^:\(([^)]*)\)(.*)$/s.exec(path);
  if (long) {
    const magic = (long[1] as string).split(',').map((word) => word.trim());
    if (magic.some((word) => word === 'exclude')) return undefined;
    fromTop = magic.includes('top');
    literal = magic.includes('literal');
    glob = magic.includes('glob');
    // `attr:` selects by attributes: which files it names cannot be read from the text.
    if (magic.some((word) => word.startsWith('attr'))) return { path: '*', fromTop: true, pattern: true };
    path = long[2] as string;
  } else if (/^:[/!^]/.test(path)) {
    const short = /^:([/!^]*)(.*)$/s.exec(path) as RegExpExecArray;
    if (/[!^]/.test(short[1] as string)) return undefined;
    fromTop = true;
    path = short[2] as string;
  }
  return { path, fromTop, pattern: (glob || !literal) && /[*?[]/.test(path) };
}

/** An object name with a path (`HEAD:x`, `:0:x`, `:x`): the path, or undefined when there is none. */
function objectPath(value: string): { readonly path: string; readonly fromTop: boolean } | undefined {
  const stage = /^:[0-3]:(.*)$/s.exec(value);
  if (stage) return { path: stage[1] as string, fromTop: !/^\.\.?\//.test(stage[1] as string) };
  if (value.startsWith(':') && !value.startsWith(':(') && !/^:[/!^]/.test(value))
    return { path: value.slice(1), fromTop: true };
  const colon = value.indexOf(':');
  if (colon <= 0 || value.startsWith(':')) return undefined;
  const path = value.slice(colon + 1);
  return { path, fromTop: !/^\.\.?\//.test(path) };
}

/**
 * Where git's subcommand is in `argv` (`git -C dir -c k=v --no-pager push`: at 6), past the global
 * options; undefined when a word before it is not static (it could be anything).
 */
export function gitSubcommandIndex(argv: readonly ShellWord[]): number | undefined {
  let index = 1;
  while (argv[index]?.value.startsWith('-')) {
    if (argv[index]?.static !== true) return undefined;
    index += GLOBAL_VALUE_OPTIONS.test(argv[index]?.value ?? '') ? 2 : 1;
  }
  return index < argv.length ? index : undefined;
}

/** The files a git command's operands name, for Read rules (empty for subcommands that print no file content). */
export function gitPaths(argv: readonly ShellWord[]): GitPath[] {
  let index = 1;
  let literalPathspecs = false;
  while (argv[index]?.static && argv[index]?.value.startsWith('-')) {
    if (argv[index]?.value === '--literal-pathspecs') literalPathspecs = true;
    index += GLOBAL_VALUE_OPTIONS.test(argv[index]?.value ?? '') ? 2 : 1;
  }
  const subcommand = argv[index]?.value ?? '';
  if (!CONTENT_COMMANDS.has(subcommand)) return [];
  const operands = argv.slice(index + 1);
  // `git grep PATTERN [REV] -- PATHS`: the first operand is the pattern, unless -e or -f gave one.
  let skipPattern = subcommand === 'grep' && !operands.some((word) => /^(-e|-f|--regexp|--file)/.test(word.value));
  const paths: GitPath[] = [];
  let afterDashes = false;
  for (let at = 0; at < operands.length; at += 1) {
    const word = operands[at] as ShellWord;
    if (word.static && word.value === '--' && !afterDashes) {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && word.value.startsWith('-')) {
      // `git log -L 1,5:file` prints that file's lines.
      const range = /^-L(.*)$/s.exec(word.value);
      const value = range ? (range[1] === '' ? operands[at + 1]?.value : range[1]) : undefined;
      if (range && value !== undefined && value.includes(':'))
        paths.push({
          word: { ...word, value: value.slice(value.lastIndexOf(':') + 1), source: value },
          fromTop: false,
          pattern: false,
        });
      if (
        VALUE_OPTIONS.test(word.value) ||
        (subcommand === 'grep' && GREP_VALUE_OPTIONS.test(word.value)) ||
        (range && range[1] === '')
      )
        at += 1;
      continue;
    }
    if (skipPattern) {
      skipPattern = false;
      continue;
    }
    if (word.value === '') continue;
    const object = afterDashes ? undefined : objectPath(word.value);
    const spec = object === undefined ? pathspec(word.value, literalPathspecs) : undefined;
    const found = object ?? spec;
    if (found === undefined || found.path === '' || /^\.\.?\.?$/.test(found.path)) continue;
    const pattern = spec?.pattern ?? false;
    paths.push({
      word: { ...word, value: found.path, source: found.path, glob: pattern, pattern: found.path },
      fromTop: found.fromTop,
      pattern,
    });
  }
  return paths;
}
