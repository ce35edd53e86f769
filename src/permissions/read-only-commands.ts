import { gitPaths } from './git-paths.js';
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

type ParsedArgs = {
  readonly flags: readonly string[];
  readonly values: ReadonlyMap<string, readonly ShellWord[]>;
  readonly positionals: readonly ShellWord[];
};

type Spec = {
  /** Flags that take a value (`-n 5`, `-n5`, `--lines=5`). */
  readonly value?: readonly string[];
  /** Flags that write or execute: present anywhere (also inside a short cluster), not read-only. */
  readonly unsafe?: readonly string[];
  /** How positionals are read: every one is a path, none is, or the first is a pattern. */
  readonly paths: 'all' | 'none' | 'pattern-then-all';
  /** Flags that make the command walk folders; `true`: it always does. */
  readonly recursive?: readonly string[] | true;
  /** At most this many positionals (`uniq in out` writes `out`). */
  readonly maxPositionals?: number;
  /** An unquoted glob or an unknown word could turn into one of the unsafe flags. */
  readonly strictWords?: boolean;
  /** Extra checks; returns why the command is not read-only. */
  readonly check?: (args: ParsedArgs) => string | undefined;
};

function parseArgs(args: readonly ShellWord[], spec: Spec): ParsedArgs | string {
  const valueFlags = new Set(spec.value ?? []);
  const unsafe = new Set(spec.unsafe ?? []);
  const flags: string[] = [];
  const values = new Map<string, ShellWord[]>();
  const positionals: ShellWord[] = [];
  const addValue = (flag: string, word: ShellWord | undefined): void => {
    const list = values.get(flag) ?? [];
    if (word) list.push(word);
    values.set(flag, list);
  };
  let endOfFlags = false;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (spec.strictWords && (!word.static || word.glob)) {
      return `${word.source} could expand to a flag that writes or runs commands`;
    }
    const value = word.value;
    if (endOfFlags || !word.static || !value.startsWith('-') || value === '-') {
      positionals.push(word);
      continue;
    }
    if (value === '--') {
      endOfFlags = true;
      continue;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const written = eq < 0 ? value : value.slice(0, eq);
      if (
        [...unsafe].some(
          (bad) =>
            bad.startsWith('--') && (written === bad || (bad.endsWith('*') && written.startsWith(bad.slice(0, -1)))),
        )
      ) {
        return `${written} can write files or run commands`;
      }
      // getopt_long accepts any unambiguous prefix: `--in` is `--in-place`, `--expr=…` is `--expression=…`.
      const expansions =
        written.length > 2 && !valueFlags.has(written)
          ? [...unsafe, ...valueFlags].filter((known) => known.startsWith(written) && known.startsWith('--'))
          : [];
      if (expansions.some((known) => unsafe.has(known)))
        return `${written} abbreviates an option that can write files or run commands`;
      const flag = expansions[0] ?? written;
      flags.push(flag);
      if (valueFlags.has(flag) && eq < 0) {
        addValue(flag, args[index + 1]);
        index += 1;
      } else if (eq >= 0) {
        addValue(flag, { ...word, value: value.slice(eq + 1) });
      }
      continue;
    }
    for (let at = 1; at < value.length; at += 1) {
      const flag = `-${value[at]}`;
      if (unsafe.has(flag)) return `${flag} can write files or run commands`;
      flags.push(flag);
      if (valueFlags.has(flag)) {
        const rest = value.slice(at + 1);
        if (rest !== '') addValue(flag, { ...word, value: rest });
        else {
          addValue(flag, args[index + 1]);
          index += 1;
        }
        break;
      }
      if (/^\d$/.test(value[at] as string)) break;
    }
  }
  return { flags, values, positionals };
}

const SED_PRINT = /^(\d+|\$)(,(\d+|\$))?p$/;

function checkSed(args: ParsedArgs): string | undefined {
  if (!args.flags.includes('-n') && !args.flags.includes('--quiet') && !args.flags.includes('--silent')) {
    return 'sed without -n may run a script that writes';
  }
  const scripts = [...(args.values.get('-e') ?? []), ...(args.values.get('--expression') ?? [])];
  const script = scripts.length > 0 ? scripts : args.positionals.slice(0, 1);
  if (script.length === 0 || !script.every((word) => word.static && SED_PRINT.test(word.value))) {
    return "only sed -n 'N,Mp' is read-only";
  }
  return undefined;
}

const GIT_READ_ONLY: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'blame',
  'describe',
  'shortlog',
  'merge-base',
  'rev-list',
  'name-rev',
  'count-objects',
  'check-ignore',
  'grep',
  'branch',
  'tag',
  'remote',
  'config',
  'stash',
  'worktree',
  'reflog',
  'show-ref',
  'help',
  'version',
]);

const GIT_UNSAFE_ANYWHERE =
  /^(--contents|--output|--ext-diff|--textconv|--exec|--upload-pack|--receive-pack|--open-files-in-pager|-O|--no-index|--paginate)/;

const GIT_UNSAFE_LONG = [
  '--contents',
  '--output',
  '--ext-diff',
  '--textconv',
  '--exec',
  '--upload-pack',
  '--receive-pack',
  '--open-files-in-pager',
  '--no-index',
  '--paginate',
];

/** git's option parser accepts unambiguous prefixes: `--out=x` is `--output=x`. */
function abbreviatesGitUnsafe(value: string): boolean {
  const eq = value.indexOf('=');
  const flag = eq < 0 ? value : value.slice(0, eq);
  return flag.length > 2 && flag.startsWith('--') && GIT_UNSAFE_LONG.some((bad) => bad.startsWith(flag));
}

/** Checks `git …`: global options, the subcommand and its flags. */
function checkGit(argv: readonly ShellWord[]): string | undefined {
  let index = 1;
  for (; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static || word.glob) return `${word.source} could expand to a git option that runs commands`;
    const value = word.value;
    if (!value.startsWith('-')) break;
    if (
      value === '--no-pager' ||
      value === '--no-optional-locks' ||
      value === '--literal-pathspecs' ||
      value === '--bare'
    )
      continue;
    return `git ${value} can change what git runs or where it writes`;
  }
  const sub = argv[index]?.value;
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) return `git ${sub ?? ''} is not a read-only git command`.trim();
  const rest = argv.slice(index + 1);
  for (const word of rest) {
    if (!word.static || word.glob) return `${word.source} could expand to a git option that runs commands`;
    if (GIT_UNSAFE_ANYWHERE.test(word.value) || abbreviatesGitUnsafe(word.value))
      return `git ${sub} ${word.value} can write files or run commands`;
  }
  const positionals = rest.filter((word) => !word.value.startsWith('-'));
  const flags = rest.filter((word) => word.value.startsWith('-')).map((word) => word.value);
  switch (sub) {
    case 'branch':
    case 'tag':
      if (
        positionals.length > 0 ||
        flags.some(
          (flag) =>
            !/^(-a|-r|-l|--list|-v|-vv|--all|--remotes|--show-current|--contains|--merged|--no-merged|--sort=.*|--format=.*|-n\d*)$/.test(
              flag,
            ),
        )
      ) {
        return `git ${sub} with these arguments can create, rename or delete`;
      }
      return undefined;
    case 'remote':
      if (positionals.length === 0)
        return flags.every((flag) => flag === '-v' || flag === '--verbose')
          ? undefined
          : 'git remote with these flags changes remotes';
      return positionals[0]?.value === 'show' || positionals[0]?.value === 'get-url'
        ? undefined
        : `git remote ${positionals[0]?.value ?? ''} changes remotes`;
    case 'config':
      return flags.some((flag) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(flag)) &&
        !flags.some((flag) => /^(--add|--unset|--replace-all|--edit|-e|--file|-f)/.test(flag))
        ? undefined
        : 'git config without --get or --list can change configuration';
    case 'stash':
    case 'worktree':
      return positionals[0]?.value === 'list'
        ? undefined
        : `git ${sub} ${positionals[0]?.value ?? ''} changes the repository`.trim();
    case 'help':
      // -w/--web, -i/--info and -m/--man start a browser or viewer that git.config can name.
      return flags.every((flag) => /^(-a|-g|--all|--guides)$/.test(flag))
        ? undefined
        : `git help ${flags.join(' ')} starts an external viewer`;
    case 'reflog':
      return positionals.length === 0 || positionals[0]?.value === 'show'
        ? undefined
        : 'git reflog with a subcommand can expire entries';
    default:
      return undefined;
  }
}

const FIND_UNSAFE = /^-(exec|execdir|ok|okdir|delete|fls|fprint|fprint0|fprintf)$/;

const SPECS: ReadonlyMap<string, Spec> = new Map<string, Spec>([
  // `printf -v NAME` assigns a variable (and evaluates a subscript in NAME): not read-only.
  [
    'printf',
    { paths: 'none', check: (args) => (args.flags.includes('-v') ? 'printf -v assigns a shell variable' : undefined) },
  ],
  ...(
    [
      'echo',
      'pwd',
      'true',
      'false',
      'whoami',
      'id',
      'uname',
      'nproc',
      'arch',
      'groups',
      'tty',
      'locale',
      'uptime',
      'sleep',
      'seq',
      'basename',
      'dirname',
      'which',
      'type',
      'printenv',
      'tput',
      'test',
      '[',
      'lsof',
      'pgrep',
      'ps',
      'ss',
      'df',
      'free',
    ] as const
  ).map((name): [string, Spec] => [name, { paths: 'none' }]),
  ['hostname', { paths: 'none', maxPositionals: 0, unsafe: ['-F', '--file', '-b', '--boot'] }],
  [
    'date',
    {
      paths: 'none',
      unsafe: ['-s', '--set', '-f', '--file'],
      check: (args) =>
        args.positionals.every((word) => word.value.startsWith('+'))
          ? undefined
          : 'date with an argument sets the clock',
    },
  ],
  ['cd', { paths: 'all', maxPositionals: 1 }],
  [
    'ls',
    {
      paths: 'all',
      value: [
        '-I',
        '--ignore',
        '-w',
        '--width',
        '-T',
        '--tabsize',
        '--hide',
        '--format',
        '--sort',
        '--time',
        '--color',
        '--quoting-style',
        '--indicator-style',
        '--time-style',
        '--block-size',
      ],
      recursive: ['-R', '--recursive'],
    },
  ],
  ...(['cat', 'rev', 'readlink', 'comm', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum'] as const).map(
    (name): [string, Spec] => [name, { paths: 'all' }],
  ),
  ['wc', { paths: 'all', unsafe: ['--files0-from'] }],
  ['tac', { paths: 'all', value: ['-s', '--separator'] }],
  ['nl', { paths: 'all', value: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'] }],
  ['stat', { paths: 'all', value: ['-c', '--format', '--printf'] }],
  ['realpath', { paths: 'all', value: ['--relative-to', '--relative-base'] }],
  ['od', { paths: 'all', value: ['-A', '-j', '-N', '-t', '-w', '-S'] }],
  ['hexdump', { paths: 'all', value: ['-n', '-s', '-e'], unsafe: ['-f'] }],
  ['strings', { paths: 'all', value: ['-n', '-t', '-e'] }],
  ['fold', { paths: 'all', value: ['-w', '--width'] }],
  ['column', { paths: 'all', value: ['-c', '-s', '-o'] }],
  ['paste', { paths: 'all', value: ['-d', '--delimiters'] }],
  ['cmp', { paths: 'all', value: ['-i', '-n', '--ignore-initial', '--bytes'] }],
  ['expand', { paths: 'all', value: ['-t', '--tabs'] }],
  ['fmt', { paths: 'all', value: ['-w', '-p', '--width', '--prefix'] }],
  ['head', { paths: 'all', value: ['-n', '-c', '--lines', '--bytes'] }],
  ['tail', { paths: 'all', value: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'] }],
  [
    'cut',
    {
      paths: 'all',
      value: ['-d', '-f', '-c', '-b', '--delimiter', '--fields', '--characters', '--bytes', '--output-delimiter'],
    },
  ],
  ['tr', { paths: 'none' }],
  [
    'diff',
    {
      paths: 'all',
      value: ['-U', '-C', '-x', '-X', '-I', '--label', '--exclude', '--exclude-from', '--from-file', '--to-file'],
      recursive: ['-r', '--recursive'],
      unsafe: ['--to-file', '--from-file'],
    },
  ],
  [
    'du',
    {
      paths: 'all',
      value: ['-d', '--max-depth', '-B', '--block-size', '-t', '--threshold', '--exclude', '-X'],
      recursive: true,
    },
  ],
  [
    'tree',
    {
      paths: 'all',
      value: ['-L', '-P', '-I', '--charset', '--filelimit', '--timefmt', '--sort'],
      unsafe: ['-o', '-R', '--fromfile'],
      recursive: true,
    },
  ],
  [
    'file',
    {
      paths: 'all',
      value: ['-e', '-F', '-P'],
      unsafe: ['-m', '-f', '-C', '--magic-file', '--files-from', '--compile'],
    },
  ],
  [
    'uniq',
    { paths: 'all', value: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'], maxPositionals: 1 },
  ],
  [
    'sort',
    {
      paths: 'all',
      value: [
        '-k',
        '-t',
        '-S',
        '-T',
        '--key',
        '--field-separator',
        '--buffer-size',
        '--temporary-directory',
        '--parallel',
      ],
      unsafe: ['-o', '--output', '--compress-program', '--files0-from', '--random-source'],
      strictWords: true,
    },
  ],
  ['base64', { paths: 'all', value: ['-w', '--wrap'], unsafe: ['-o', '--output'], strictWords: true }],
  [
    'grep',
    {
      paths: 'pattern-then-all',
      value: [
        '-e',
        '-f',
        '-m',
        '-A',
        '-B',
        '-C',
        '-d',
        '-D',
        '--regexp',
        '--file',
        '--max-count',
        '--include',
        '--exclude',
        '--exclude-dir',
        '--exclude-from',
        '--context',
        '--after-context',
        '--before-context',
        '--color',
        '--colour',
        '--label',
        '--binary-files',
        '--devices',
        '--directories',
      ],
      recursive: ['-r', '-R', '--recursive', '--dereference-recursive'],
    },
  ],
  [
    'rg',
    {
      paths: 'pattern-then-all',
      value: [
        '-e',
        '-f',
        '-g',
        '-t',
        '-T',
        '-m',
        '-A',
        '-B',
        '-C',
        '-M',
        '-j',
        '-r',
        '--regexp',
        '--file',
        '--glob',
        '--iglob',
        '--type',
        '--type-not',
        '--max-count',
        '--context',
        '--after-context',
        '--before-context',
        '--max-columns',
        '--threads',
        '--replace',
        '--max-depth',
        '--color',
        '--colors',
        '--sort',
        '--sortr',
        '--encoding',
        '--type-add',
        '--max-filesize',
        '--path-separator',
        '--ignore-file',
      ],
      unsafe: ['--pre', '--pre-glob', '--hostname-bin', '-z', '--search-zip'],
      recursive: true,
      strictWords: true,
    },
  ],
  [
    'fd',
    {
      paths: 'pattern-then-all',
      value: [
        '-e',
        '-t',
        '-d',
        '-E',
        '-S',
        '-j',
        '--extension',
        '--type',
        '--max-depth',
        '--exclude',
        '--size',
        '--threads',
        '--changed-within',
        '--changed-before',
        '--owner',
        '--color',
        '--base-directory',
        '--search-path',
      ],
      unsafe: ['-x', '-X', '--exec', '--exec-batch', '-l', '--list-details'],
      recursive: true,
      strictWords: true,
    },
  ],
  [
    'sed',
    {
      paths: 'all',
      value: ['-e', '--expression', '-l', '--line-length'],
      unsafe: ['-i', '--in-place', '-f', '--file'],
      strictWords: true,
      check: checkSed,
    },
  ],
]);

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
