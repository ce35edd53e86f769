import { gitPaths } from './git-paths.js';
import { parseArgs, type ParsedArgs } from './read-only-args.js';
import { checkGit } from './read-only-git.js';
import { FIND_UNSAFE, SPECS } from './read-only-specs.js';
import type { ShellWord } from './shell-words.js';

/**
 * The built-in read-only command set: commands that run without a rule in every mode, each with
 * the flags that would make it write or execute. A command is read-only only when every flag is
 * understood as harmless; the files it reads are returned for path checks.
 */

/** A path a read-only command reads. */
export type ReadPath = {
  readonly word: ShellWord;
  /** The command walks the folder (grep -r, rg, find, du, ls -R, tree). */
  readonly recursive: boolean;
  /** It lists names and sizes only (ls, du, tree, fd, find), never file contents. */
  readonly namesOnly?: boolean;
  /** A git path relative to the repository's top folder (`HEAD:x`, `:(top)x`). */
  readonly fromTop?: boolean;
  /** A git pathspec pattern: git matches it against history too, `*` across `/`. */
  readonly gitPattern?: boolean;
};

/** The verdict on one command. */
export type ReadOnlyVerdict =
  | { readonly readOnly: true; readonly reads: readonly ReadPath[] }
  | { readonly readOnly: false; readonly reason: string };

function globalFlags(args: ParsedArgs): boolean {
  return (
    args.flags.includes('-e') ||
    args.flags.includes('-f') ||
    args.flags.includes('--regexp') ||
    args.flags.includes('--file') ||
    args.flags.includes('--files')
  );
}

/**
 * Classifies one command (wrappers and safe assignments already stripped) against the built-in
 * read-only set. `argv[0]` must be a bare program name: `/tmp/evil/rg` is not `rg`.
 */
export function classifyReadOnly(argv: readonly ShellWord[]): ReadOnlyVerdict {
  const program = argv[0];
  if (program === undefined) return { readOnly: false, reason: 'a bare assignment changes the shell environment' };
  if (!program.static || (program.quoted && /\s/.test(program.value)))
    return { readOnly: false, reason: `the program name ${program.source} is not a plain word` };
  const name = program.value;
  if (name.includes('/')) return { readOnly: false, reason: `${name} is a path, not a built-in read-only command` };
  if (name === 'git') {
    const reason = checkGit(argv);
    const reads = gitPaths(argv).map(({ word, fromTop, pattern }): ReadPath => ({
      word,
      recursive: false,
      ...(fromTop ? { fromTop } : {}),
      ...(pattern ? { gitPattern: pattern } : {}),
    }));
    return reason === undefined ? { readOnly: true, reads } : { readOnly: false, reason };
  }
  if (name === 'command' && (argv[1]?.value === '-v' || argv[1]?.value === '-V')) return { readOnly: true, reads: [] };
  if (name === 'find') return classifyFind(argv);
  const spec = SPECS.get(name);
  if (spec === undefined) return { readOnly: false, reason: `${name} is not in the built-in read-only set` };
  const parsed = parseArgs(argv.slice(1), spec);
  if (typeof parsed === 'string') return { readOnly: false, reason: `${name}: ${parsed}` };
  if (spec.maxPositionals !== undefined && parsed.positionals.length > spec.maxPositionals) {
    return { readOnly: false, reason: `${name} with ${parsed.positionals.length} arguments can write` };
  }
  const failed = spec.check?.(parsed);
  if (failed !== undefined) return { readOnly: false, reason: failed };
  const recursive = spec.recursive === true || (spec.recursive ?? []).some((flag) => parsed.flags.includes(flag));
  let paths: readonly ShellWord[] = [];
  if (spec.paths === 'all')
    paths =
      name === 'sed' && !parsed.values.has('-e') && !parsed.values.has('--expression')
        ? parsed.positionals.slice(1)
        : parsed.positionals;
  else if (spec.paths === 'pattern-then-all')
    paths = globalFlags(parsed) ? parsed.positionals : parsed.positionals.slice(1);
  const namesOnly = LISTING_COMMANDS.has(name);
  const reads: ReadPath[] = paths.map((word) => ({ word, recursive, namesOnly }));
  for (const flag of ['-f', '--file'])
    for (const word of parsed.values.get(flag) ?? []) reads.push({ word, recursive: false });
  if (name === 'fd') {
    // `--base-directory` moves where every path is resolved; `--search-path` names folders to walk.
    if (parsed.values.has('--base-directory'))
      return { readOnly: false, reason: 'fd --base-directory searches from another folder' };
    for (const word of parsed.values.get('--search-path') ?? []) reads.push({ word, recursive: true });
  }
  if (
    recursive &&
    paths.length === 0 &&
    (name === 'rg' || name === 'grep' || name === 'fd' || name === 'du' || name === 'tree' || name === 'ls')
  ) {
    reads.push({
      word: { value: '.', static: true, glob: false, quoted: false, source: '.' },
      recursive: true,
      namesOnly,
    });
  }
  return { readOnly: true, reads };
}

/** Commands that list names and sizes, never contents. */
const LISTING_COMMANDS: ReadonlySet<string> = new Set(['ls', 'du', 'tree', 'fd']);

/** find primaries whose next word is their argument, never an action. */
const FIND_VALUE_PRIMARIES =
  /^-(i?name|i?path|i?wholename|i?regex|i?lname|x?type|size|user|group|perm|[acm](time|min)|newer|max(depth)|mindepth|printf|samefile|inum|links|uid|gid|used|fstype|regextype)$/;

function classifyFind(argv: readonly ShellWord[]): ReadOnlyVerdict {
  const reads: ReadPath[] = [];
  let inExpression = false;
  let start = 1;
  // Options before the starting points: -H, -L, -P, -D debugopts, -Olevel.
  while (argv[start]?.static && /^-([HLP]|D|O\d*)$/.test(argv[start]?.value ?? ''))
    start += argv[start]?.value === '-D' ? 2 : 1;
  for (let index = start; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static || word.glob) {
      const previous = argv[index - 1];
      if (inExpression && word.quoted && previous?.static && FIND_VALUE_PRIMARIES.test(previous.value)) continue;
      return { readOnly: false, reason: `find: ${word.source} could expand to an action that writes or runs commands` };
    }
    if (FIND_UNSAFE.test(word.value))
      return { readOnly: false, reason: `find ${word.value} can delete files or run commands` };
    if (word.value === '-files0-from')
      return { readOnly: false, reason: 'find -files0-from takes its starting points from a file nobody has seen' };
    if (!inExpression && (word.value.startsWith('-') || word.value === '(' || word.value === '!')) inExpression = true;
    if (!inExpression) reads.push({ word, recursive: true, namesOnly: true });
  }
  if (reads.length === 0)
    reads.push({
      word: { value: '.', static: true, glob: false, quoted: false, source: '.' },
      recursive: true,
      namesOnly: true,
    });
  return { readOnly: true, reads };
}

/** Whether `find` here runs or deletes (`-exec`, `-delete`, …): only an exact rule may approve it. */
export function findRunsCommands(argv: readonly ShellWord[]): boolean {
  return argv[0]?.value === 'find' && argv.some((word) => FIND_UNSAFE.test(word.value));
}
