import type { ParsedArgs, Spec } from './read-only-args.js';

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

/** find primaries that run, delete or write files. */
export const FIND_UNSAFE = /^-(exec|execdir|ok|okdir|delete|fls|fprint|fprint0|fprintf)$/;

/** The read-only commands other than git and find, by name, with the flags that make them unsafe. */
export const SPECS: ReadonlyMap<string, Spec> = new Map<string, Spec>([
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
