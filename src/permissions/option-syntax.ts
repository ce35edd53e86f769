import type { OptionStyle } from './code-running-options.js';
import type { ShellWord } from './shell-words.js';

/**
 * How common developer tools lay out their command lines, and a reader for them: which words are
 * options (in the program's own spellings and abbreviations), which are option values, which is
 * the subcommand, and where the program's options end. Shared by the table of options that run
 * code and the table of options that name files.
 */

/** How a program lays out its command line. */
export type Syntax = {
  readonly style: OptionStyle;
  /** The first word that is not an option (or an option's value) is a subcommand. */
  readonly subcommand: boolean;
  /** Options whose value is the next word, so that word is neither the subcommand nor an end. */
  readonly valueOptions: readonly string[];
  /** Options known to take no value (where an unknown option is assumed to take the next word). */
  readonly flagOptions?: readonly string[];
  /** Where its own options end: at `--` (they may follow operands), or at the first operand. */
  readonly end: 'double-dash' | 'operand' | 'operand-after-subcommand';
  /** Real options that are prefixes of an option in the table, so not abbreviations of it. */
  readonly realOptions?: readonly string[];
  /** Options that take the next two words (`jq --arg NAME VALUE`). */
  readonly pairOptions?: readonly string[];
};

const NPM: Syntax = {
  style: 'npm',
  subcommand: true,
  valueOptions: [
    '-w',
    '--workspace',
    '--prefix',
    '-C',
    '--userconfig',
    '--globalconfig',
    '--registry',
    '--cache',
    '--logs-dir',
    '--loglevel',
  ],
  end: 'double-dash',
};
const AWK: Syntax = {
  style: 'getopt',
  subcommand: false,
  valueOptions: [
    '-F',
    '-v',
    '-f',
    '-e',
    '--source',
    '-i',
    '-l',
    '--field-separator',
    '--assign',
    '--file',
    '--include',
    '--load',
  ],
  end: 'double-dash',
};
export const SYNTAX: ReadonlyMap<string, Syntax> = new Map([
  ['npm', NPM],
  ['pnpm', NPM],
  [
    'npx',
    {
      style: 'npm',
      subcommand: false,
      valueOptions: ['-p', '--package', '-c', '--call', '--node-options', '--userconfig'],
      flagOptions: ['-y', '--yes', '--no', '--no-install', '--ignore-existing', '-q', '--quiet'],
      end: 'operand',
    },
  ],
  // Node's options end at the script, but a script argument that looks like one asks too: safer than guessing.
  [
    'node',
    {
      style: 'node',
      subcommand: false,
      valueOptions: [
        '-r',
        '--require',
        '--import',
        '--loader',
        '--experimental-loader',
        '-e',
        '--eval',
        '-p',
        '--print',
        '-C',
        '--conditions',
        '--input-type',
        '--test-reporter',
        '--test-reporter-destination',
        '--inspect-port',
        '--title',
      ],
      end: 'double-dash',
    },
  ],
  [
    'tar',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-f',
        '--file',
        '-C',
        '--directory',
        '-T',
        '--files-from',
        '-X',
        '--exclude-from',
        '-I',
        '-F',
        '-b',
        '-g',
        '-K',
        '-L',
        '-N',
        '-V',
        '-H',
      ],
      end: 'double-dash',
    },
  ],
  [
    'make',
    { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' },
  ],
  [
    'gmake',
    { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' },
  ],
  ['go', { style: 'go', subcommand: true, valueOptions: ['-C'], end: 'double-dash' }],
  [
    'cargo',
    { style: 'exact', subcommand: true, valueOptions: ['-C', '--config', '-Z', '--color'], end: 'double-dash' },
  ],
  [
    'git',
    {
      style: 'git',
      subcommand: true,
      valueOptions: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix'],
      end: 'double-dash',
      realOptions: ['--text'],
    },
  ],
  [
    'man',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: ['-P', '-C', '-M', '-L', '-S', '-m', '-p', '-E', '-R'],
      end: 'double-dash',
    },
  ],
  [
    'rsync',
    {
      style: 'exact',
      subcommand: false,
      valueOptions: [
        '-e',
        '-M',
        '-f',
        '-B',
        '-T',
        '--files-from',
        '--exclude-from',
        '--include-from',
        '--log-file',
        '--write-batch',
        '--only-write-batch',
        '--read-batch',
        '--password-file',
        '--exclude',
        '--include',
        '--filter',
      ],
      end: 'double-dash',
    },
  ],
  [
    'sed',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
      end: 'double-dash',
    },
  ],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  [
    'find',
    {
      style: 'go',
      subcommand: false,
      valueOptions: [
        '-name',
        '-iname',
        '-path',
        '-ipath',
        '-wholename',
        '-iwholename',
        '-regex',
        '-iregex',
        '-lname',
        '-ilname',
        '-type',
        '-xtype',
        '-size',
        '-user',
        '-group',
        '-perm',
        '-newer',
        '-mtime',
        '-mmin',
        '-atime',
        '-amin',
        '-ctime',
        '-cmin',
        '-maxdepth',
        '-mindepth',
        '-printf',
        '-samefile',
        '-inum',
        '-links',
        '-uid',
        '-gid',
        '-fstype',
        '-regextype',
      ],
      end: 'double-dash',
    },
  ],
  [
    'xargs',
    {
      style: 'getopt',
      subcommand: true,
      valueOptions: [
        '-n',
        '-I',
        '-P',
        '-L',
        '-d',
        '-E',
        '-s',
        '-a',
        '--max-args',
        '--replace',
        '--max-procs',
        '--max-lines',
        '--delimiter',
        '--eof',
        '--max-chars',
        '--arg-file',
        '--process-slot-var',
      ],
      end: 'operand-after-subcommand',
    },
  ],
  [
    'curl',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-o',
        '--output',
        '--output-dir',
        '-D',
        '--dump-header',
        '-c',
        '--cookie-jar',
        '--trace',
        '--trace-ascii',
        '--stderr',
        '--etag-save',
        '--libcurl',
        '-T',
        '--upload-file',
        '-K',
        '--config',
        '-d',
        '--data',
        '--data-binary',
        '--data-urlencode',
        '--data-ascii',
        '-F',
        '--form',
        '-b',
        '--cookie',
        '--netrc-file',
        '-E',
        '--cert',
        '--key',
        '-H',
        '--header',
        '-X',
        '--request',
        '-u',
        '--user',
        '-A',
        '--user-agent',
        '-e',
        '--referer',
        '-x',
        '--proxy',
        '-w',
        '--write-out',
        '-m',
        '--max-time',
        '--connect-timeout',
        '-r',
        '--range',
        '--url',
      ],
      end: 'double-dash',
    },
  ],
  [
    'wget',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-O',
        '--output-document',
        '-o',
        '--output-file',
        '-a',
        '--append-output',
        '-P',
        '--directory-prefix',
        '--save-cookies',
        '--load-cookies',
        '--post-file',
        '--body-file',
        '-i',
        '--input-file',
        '-U',
        '--user-agent',
        '--header',
        '-t',
        '--tries',
        '-T',
        '--timeout',
      ],
      end: 'double-dash',
    },
  ],
  [
    'jq',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: ['-f', '--from-file', '--indent', '-L'],
      pairOptions: ['--arg', '--argjson', '--rawfile', '--slurpfile'],
      end: 'double-dash',
    },
  ],
  ...(['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++'] as const).map((name): [string, Syntax] => [
    name,
    {
      style: 'exact',
      subcommand: false,
      valueOptions: ['-o', '-x', '-I', '-L', '-include', '-MF', '-MT'],
      end: 'double-dash',
    },
  ]),
  [
    'tsc',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '--outDir',
        '--outFile',
        '--declarationDir',
        '--tsBuildInfoFile',
        '-p',
        '--project',
        '--target',
        '-t',
        '--module',
        '-m',
        '--lib',
        '--jsx',
      ],
      end: 'double-dash',
    },
  ],
  [
    'sort',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-k',
        '-t',
        '-S',
        '-T',
        '-o',
        '--output',
        '--key',
        '--field-separator',
        '--buffer-size',
        '--temporary-directory',
        '--files0-from',
      ],
      end: 'double-dash',
    },
  ],
  [
    'du',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-d',
        '--max-depth',
        '-B',
        '--block-size',
        '-t',
        '--threshold',
        '--exclude',
        '-X',
        '--exclude-from',
        '--files0-from',
      ],
      end: 'double-dash',
    },
  ],
  ...(['grep', 'egrep', 'fgrep'] as const).map((name): [string, Syntax] => [
    name,
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
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
        '--label',
        '--binary-files',
        '--devices',
        '--directories',
      ],
      end: 'double-dash',
    },
  ]),
  [
    'rg',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
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
        '--ignore-file',
      ],
      end: 'double-dash',
    },
  ],
  [
    'ss',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: ['-F', '--filter', '-D', '--diag', '-A', '--query', '--socket', '-f', '--family', '-N', '--net'],
      end: 'double-dash',
    },
  ],
  ...(['pgrep', 'pkill'] as const).map((name): [string, Syntax] => [
    name,
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-F',
        '--pidfile',
        '-u',
        '--euid',
        '-U',
        '--uid',
        '-g',
        '--pgroup',
        '-G',
        '--group',
        '-P',
        '--parent',
        '-s',
        '--session',
        '-t',
        '--terminal',
        '-d',
        '--delimiter',
        '--ns',
        '--nslist',
      ],
      end: 'double-dash',
    },
  ]),
  ['wc', { style: 'getopt', subcommand: false, valueOptions: ['--files0-from'], end: 'double-dash' }],
  [
    'script',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-c',
        '--command',
        '-E',
        '--echo',
        '-I',
        '--log-in',
        '-O',
        '--log-out',
        '-B',
        '--log-io',
        '-T',
        '--log-timing',
        '-m',
        '--logging-format',
      ],
      end: 'double-dash',
    },
  ],
  [
    'zip',
    {
      style: 'exact',
      subcommand: false,
      valueOptions: ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-Z'],
      end: 'double-dash',
    },
  ],
  [
    'cpio',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: ['-F', '--file', '-O', '-I', '-E', '--pattern-file', '-H', '--format', '-D', '--directory'],
      end: 'double-dash',
    },
  ],
  ...(['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum'] as const).map(
    (name): [string, Syntax] => [name, { style: 'getopt', subcommand: false, valueOptions: [], end: 'double-dash' }],
  ),
  [
    'diff',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '-U',
        '-C',
        '-x',
        '-X',
        '-I',
        '--label',
        '--exclude',
        '--exclude-from',
        '--from-file',
        '--to-file',
      ],
      end: 'double-dash',
    },
  ],
  [
    'docker',
    {
      style: 'exact',
      subcommand: true,
      valueOptions: [
        '-H',
        '--host',
        '-c',
        '--context',
        '--config',
        '-l',
        '--log-level',
        '-e',
        '--env',
        '-v',
        '--volume',
        '--mount',
        '-p',
        '--publish',
        '-w',
        '--workdir',
        '-u',
        '--user',
        '--name',
        '--network',
        '--net',
        '--entrypoint',
        '--env-file',
        '--label',
        '--platform',
        '--pid',
        '--ipc',
        '--userns',
        '--cap-add',
        '--cap-drop',
        '--security-opt',
        '--device',
        '-m',
        '--memory',
        '--cpus',
        '--hostname',
        '-h',
        '--add-host',
        '--restart',
        '--tmpfs',
        '--ulimit',
        '--shm-size',
        '--gpus',
        '--runtime',
        '-f',
        '--file',
        '--project-directory',
        '--project-name',
      ],
      flagOptions: [
        '--rm',
        '-i',
        '-t',
        '-it',
        '-ti',
        '-d',
        '--detach',
        '--init',
        '--privileged',
        '--read-only',
        '--interactive',
        '--tty',
        '-P',
        '--publish-all',
        '-q',
        '--quiet',
        '-a',
        '--all',
      ],
      end: 'operand-after-subcommand',
    },
  ],
]);

export function basename(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}

/** A word that could turn into an option at run time (`$X`, `"$(…)"`): its text starts with an expansion. */
function couldBeOption(word: ShellWord): boolean {
  return !word.static && /^["']?[$`]/.test(word.source);
}

export type Parsed = {
  readonly subcommand: { readonly value: string; readonly index: number } | undefined;
  readonly options: readonly { readonly word: string; readonly next: string | undefined; readonly index: number }[];
  readonly operands: readonly { readonly value: string; readonly index: number }[];
  /** The words after `--` (or go's `-args`): operands, never options. */
  readonly afterOptions: readonly { readonly value: string; readonly index: number }[];
  /** Indexes of words known only at run time that could be options. */
  readonly unknown: readonly number[];
};

function normalize(option: string, style: OptionStyle): string {
  return style === 'npm' || style === 'node' ? option.replace(/_/g, '-') : option;
}

function takesValue(option: string, syntax: Syntax): boolean {
  const name = option.includes('=') ? undefined : option;
  if (name === undefined) return false;
  if (syntax.valueOptions.includes(name)) return true;
  // A short cluster (`-cf out.tar`, `-avze ssh`) takes the next word when its last letter does.
  if (syntax.style !== 'go' && /^-[A-Za-z0-9]{2,}$/.test(name)) {
    for (let at = 1; at < name.length; at += 1) {
      if (syntax.valueOptions.includes(`-${name[at] as string}`)) return at === name.length - 1;
    }
    return false;
  }
  if (syntax.flagOptions === undefined || syntax.flagOptions.includes(name)) return false;
  // Where options end at the first operand, an unknown option may take the next word: assume so.
  return syntax.end !== 'double-dash' && name.startsWith('-');
}

/** Splits the words after the program into options, operands and the subcommand. */
export function parse(argv: readonly ShellWord[], syntax: Syntax): Parsed {
  const options: { word: string; next: string | undefined; index: number }[] = [];
  const operands: { value: string; index: number }[] = [];
  const unknown: number[] = [];
  const afterOptions: { value: string; index: number }[] = [];
  let subcommand: { value: string; index: number } | undefined;
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (couldBeOption(word)) unknown.push(index);
    const value = word.value;
    if (word.static && (value === '--' || (syntax.style === 'go' && (value === '-args' || value === '--args')))) {
      for (let rest = index + 1; rest < argv.length; rest += 1)
        afterOptions.push({ value: argv[rest]?.value ?? '', index: rest });
      break;
    }
    if (word.static && value.startsWith('-') && value !== '-') {
      const written = normalize(value, syntax.style);
      options.push({ word: written, next: argv[index + 1]?.value, index });
      if ((syntax.pairOptions ?? []).includes(written)) index += 2;
      else if (takesValue(written, syntax)) index += 1;
      continue;
    }
    if (syntax.subcommand && subcommand === undefined && !value.startsWith('+')) {
      subcommand = { value, index };
      // xargs: the "subcommand" is the command it runs; what follows are that command's words.
      if (basename(argv[0]?.value ?? '') === 'xargs') break;
      continue;
    }
    if (syntax.end === 'operand' || (syntax.end === 'operand-after-subcommand' && subcommand !== undefined)) break;
    operands.push({ value, index });
  }
  return { subcommand, options, operands, afterOptions, unknown };
}

/** The value an option written as `word` (followed by `next`) gives `name`, or undefined when it is not that option. */
export function optionValue(
  word: string,
  next: string | undefined,
  name: string,
  syntax: Syntax,
): { readonly value: string | undefined } | undefined {
  const eq = word.indexOf('=');
  const written = eq < 0 ? word : word.slice(0, eq);
  const inline = eq < 0 ? undefined : word.slice(eq + 1);
  const long = name.startsWith('--') || (syntax.style === 'go' && name.length > 2);
  if (long) {
    const spellings = syntax.style === 'go' ? [name, `-${name}`] : [name];
    if (spellings.includes(written)) return { value: inline ?? next };
    const prefixes = syntax.style === 'getopt' || syntax.style === 'git' || syntax.style === 'npm';
    if (
      prefixes &&
      written.startsWith('--') &&
      written.length >= 4 &&
      name.startsWith(written) &&
      !(syntax.realOptions ?? []).includes(written)
    )
      return { value: inline ?? next };
    return undefined;
  }
  // A short option: alone, with its value attached, or in a cluster of short options.
  const letter = name.slice(1);
  if (word === name) return { value: next };
  if (syntax.style === 'go' || word.startsWith('--') || !word.startsWith('-')) return undefined;
  if (word.startsWith(name) && word.length > name.length) return { value: word.slice(name.length).replace(/^=/, '') };
  // In a cluster (`-avze ssh`), letters up to one that takes a value are options; the rest is that value.
  for (let at = 1; at < word.length; at += 1) {
    const char = word[at] as string;
    if (!/[A-Za-z0-9]/.test(char)) return undefined;
    if (char === letter) {
      const rest = word.slice(at + 1);
      return { value: rest === '' ? next : rest };
    }
    if (syntax.valueOptions.includes(`-${char}`)) return undefined;
  }
  return undefined;
}
