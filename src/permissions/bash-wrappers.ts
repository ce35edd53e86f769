import type { ShellCommand } from './bash-parser.js';
import { isSafeAssignment } from './environment-variables.js';
import { renderWord, type ShellWord } from './shell-words.js';
import { gitSubcommandIndex } from './git-paths.js';

/**
 * Canonical views of one simple command for rule matching. Deny and ask rules see every reading
 * of the command (assignments stripped, every wrapper unwrapped, `/usr/bin/rm` as `rm`); allow
 * rules and the read-only set see only what the reference strips safely (safe env prefixes and
 * the wrappers `timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`, `noglob` and
 * bare `xargs`).
 */

/** Renders words as a command string for rule matching. */
export function renderCommand(words: readonly ShellWord[]): string {
  return words.map(renderWord).join(' ');
}

type Strip = (args: readonly ShellWord[]) => readonly ShellWord[] | undefined;

function skipFlags(
  args: readonly ShellWord[],
  options: {
    readonly valueFlags: ReadonlySet<string>;
    readonly boolFlags: ReadonlySet<string> | 'any';
    readonly positional?: number;
  },
): readonly ShellWord[] | undefined {
  let index = 0;
  while (index < args.length) {
    const word = args[index] as ShellWord;
    if (!word.static) return undefined;
    const value = word.value;
    if (value === '--') {
      index += 1;
      break;
    }
    if (!value.startsWith('-') || value === '-') break;
    const flag = value.includes('=') ? value.slice(0, value.indexOf('=')) : value;
    if (options.valueFlags.has(flag) && !value.includes('=')) index += 2;
    else if (options.valueFlags.has(flag)) index += 1;
    else if ([...options.valueFlags].some((short) => short.length === 2 && value.startsWith(short) && value.length > 2))
      index += 1;
    else if (options.boolFlags === 'any' || options.boolFlags.has(flag) || /^-\d+$/.test(value)) index += 1;
    else return undefined;
  }
  index += options.positional ?? 0;
  if (index >= args.length) return undefined;
  return args.slice(index);
}

const NONE: ReadonlySet<string> = new Set();

const SAFE_WRAPPERS: ReadonlyMap<string, Strip> = new Map<string, Strip>([
  [
    'timeout',
    (args) =>
      skipFlags(args, {
        valueFlags: new Set(['-s', '--signal', '-k', '--kill-after']),
        boolFlags: new Set(['--preserve-status', '--foreground', '-v', '--verbose']),
        positional: 1,
      }),
  ],
  ['time', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: new Set(['-p']) })],
  ['nice', (args) => skipFlags(args, { valueFlags: new Set(['-n', '--adjustment']), boolFlags: NONE })],
  ['nohup', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: NONE })],
  [
    'stdbuf',
    (args) =>
      skipFlags(args, { valueFlags: new Set(['-i', '-o', '-e', '--input', '--output', '--error']), boolFlags: NONE }),
  ],
  [
    'command',
    (args) =>
      args[0]?.value === '-v' || args[0]?.value === '-V'
        ? undefined
        : skipFlags(args, { valueFlags: NONE, boolFlags: new Set(['-p']) }),
  ],
  ['builtin', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: NONE })],
  ['noglob', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: NONE })],
  [
    'xargs',
    (args) => (args[0]?.value.startsWith('-') ? undefined : skipFlags(args, { valueFlags: NONE, boolFlags: NONE })),
  ],
]);

const XARGS_VALUE_FLAGS = new Set([
  '-n',
  '-I',
  '-i',
  '-P',
  '-L',
  '-l',
  '-d',
  '-E',
  '-e',
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
]);
const SUDO_VALUE_FLAGS = new Set([
  '-u',
  '-g',
  '-h',
  '-p',
  '-C',
  '-D',
  '-r',
  '-t',
  '-U',
  '-T',
  '--user',
  '--group',
  '--host',
  '--prompt',
  '--chdir',
]);
const ENV_VALUE_FLAGS = new Set(['-u', '--unset', '-C', '--chdir']);

function stripEnv(args: readonly ShellWord[]): readonly ShellWord[] | undefined {
  const split = args.findIndex(
    (word) => word.value === '-S' || word.value.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(word.value),
  );
  if (split >= 0) {
    const word = args[split] as ShellWord;
    const inline = word.value.startsWith('--split-string=')
      ? word.value.slice(15)
      : word.value.replace(/^-[a-zA-Z]*S/, '');
    const text = inline !== '' ? inline : (args[split + 1]?.value ?? '');
    const parts = text.split(/\s+/).filter((part) => part !== '');
    return parts.map((part) => ({ value: part, static: true, glob: false, quoted: false, source: part }));
  }
  const rest = skipFlags(args, { valueFlags: ENV_VALUE_FLAGS, boolFlags: 'any' });
  if (rest === undefined) return undefined;
  const first = rest.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value));
  return first < 0 ? undefined : rest.slice(first);
}

/** Wrappers that only deny and ask rules look through (they change what runs, or as whom). */
const DENY_ONLY_WRAPPERS: ReadonlyMap<string, Strip> = new Map<string, Strip>([
  ['xargs', (args) => skipFlags(args, { valueFlags: XARGS_VALUE_FLAGS, boolFlags: 'any' })],
  ['sudo', (args) => skipFlags(args, { valueFlags: SUDO_VALUE_FLAGS, boolFlags: 'any' })],
  ['doas', (args) => skipFlags(args, { valueFlags: new Set(['-u', '-C']), boolFlags: 'any' })],
  ['env', stripEnv],
  ['time', (args) => skipFlags(args, { valueFlags: new Set(['-o', '-f', '--output', '--format']), boolFlags: 'any' })],
  ['nice', (args) => skipFlags(args, { valueFlags: new Set(['-n', '--adjustment']), boolFlags: 'any' })],
  ['ionice', (args) => skipFlags(args, { valueFlags: new Set(['-c', '-n', '-p', '-P', '-u']), boolFlags: 'any' })],
  ['setsid', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: 'any' })],
  ['watch', (args) => skipFlags(args, { valueFlags: new Set(['-n', '-d', '--interval']), boolFlags: 'any' })],
  [
    'flock',
    (args) => skipFlags(args, { valueFlags: new Set(['-w', '-E', '--timeout']), boolFlags: 'any', positional: 1 }),
  ],
  ['exec', (args) => skipFlags(args, { valueFlags: new Set(['-a']), boolFlags: 'any' })],
  ['coproc', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: NONE })],
  // Deny-side fallbacks for the safe wrappers when they carry flags the allow view does not know.
  [
    'timeout',
    (args) =>
      skipFlags(args, {
        valueFlags: new Set(['-s', '--signal', '-k', '--kill-after']),
        boolFlags: 'any',
        positional: 1,
      }),
  ],
  ['nohup', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: 'any' })],
  [
    'stdbuf',
    (args) =>
      skipFlags(args, { valueFlags: new Set(['-i', '-o', '-e', '--input', '--output', '--error']), boolFlags: 'any' }),
  ],
  [
    'command',
    (args) =>
      args.some((word) => word.value === '-v' || word.value === '-V')
        ? undefined
        : skipFlags(args, { valueFlags: NONE, boolFlags: 'any' }),
  ],
  ['builtin', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: 'any' })],
  ['noglob', (args) => skipFlags(args, { valueFlags: NONE, boolFlags: 'any' })],
]);

/** The program a command's first word names, when it is known before run time. */
export function programName(word: ShellWord | undefined): string | undefined {
  if (word === undefined || !word.static) return undefined;
  return word.value;
}

/** The last segment of a program path (`/usr/bin/rm` → `rm`). */
export function basename(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash < 0 ? value : value.slice(slash + 1);
}

/** The view of a command that allow rules and the read-only set judge. */
export type AllowView = {
  readonly argv: readonly ShellWord[];
  /** The command string allow rules match. */
  readonly text: string;
  /** The first assignment in front of the command that is not on the safe list. */
  readonly unsafeAssignment: string | undefined;
  /** The command was reached through `xargs`: its arguments come from input nobody has seen. */
  readonly viaXargs: boolean;
};

/** Strips safe assignments and safe wrappers. */
export function allowView(command: ShellCommand): AllowView {
  const unsafe = command.assignments.find((assignment) => !isSafeAssignment(assignment));
  let argv = command.words;
  let viaXargs = false;
  for (let depth = 0; depth < 8; depth += 1) {
    const name = programName(argv[0]);
    const strip = name === undefined ? undefined : SAFE_WRAPPERS.get(name);
    const rest = strip?.(argv.slice(1));
    if (rest === undefined) break;
    if (name === 'xargs') viaXargs = true;
    argv = rest;
  }
  const prefix = unsafe
    ? command.assignments.map((assignment) => `${assignment.name}=${renderWord(assignment.value)}`).join(' ')
    : '';
  const body = renderCommand(argv);
  return { argv, text: prefix ? `${prefix} ${body}`.trim() : body, unsafeAssignment: unsafe?.name, viaXargs };
}

/** Every reading of a command deny and ask rules are matched against, and the innermost argv. */
export function denyForms(command: ShellCommand): {
  readonly forms: readonly string[];
  readonly argv: readonly ShellWord[];
  /** `xargs` feeds the innermost command arguments nobody has seen. */
  readonly viaXargs: boolean;
  /** Each argv on the way in, outermost first (`sudo watch 'x'`: the sudo, watch and 'x' readings). */
  readonly layers: readonly (readonly ShellWord[])[];
} {
  const forms = new Set<string>();
  const withAssignments = command.assignments.map((assignment) => `${assignment.name}=${renderWord(assignment.value)}`);
  if (withAssignments.length > 0) forms.add([...withAssignments, renderCommand(command.words)].join(' ').trim());
  let argv = command.words;
  // Leading `NAME=value` words are assignments to bash, even where the grammar read them as words.
  const firstCommandWord = argv.findIndex((word) => !(word.static && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value)));
  if (firstCommandWord > 0) {
    forms.add(renderCommand(argv));
    argv = argv.slice(firstCommandWord);
  }
  let viaXargs = false;
  const layers: (readonly ShellWord[])[] = [];
  for (let depth = 0; depth < 12 && argv.length > 0; depth += 1) {
    forms.add(renderCommand(argv));
    layers.push(argv);
    const name = programName(argv[0]);
    if (name !== undefined && name.includes('/')) {
      argv = [{ ...(argv[0] as ShellWord), value: basename(name), source: basename(name) }, ...argv.slice(1)];
      forms.add(renderCommand(argv));
    }
    const bare = name === undefined ? undefined : basename(name);
    const strip = bare === undefined ? undefined : (SAFE_WRAPPERS.get(bare) ?? DENY_ONLY_WRAPPERS.get(bare));
    let rest = strip?.(argv.slice(1));
    if (rest === undefined && bare !== undefined) rest = DENY_ONLY_WRAPPERS.get(bare)?.(argv.slice(1));
    if (rest === undefined) break;
    if (bare === 'xargs') viaXargs = true;
    argv = rest;
  }
  // `find … -exec rm {} +`: the command find runs is a reading of its own.
  if (programName(argv[0]) !== undefined && basename(programName(argv[0]) as string) === 'find') {
    for (let index = 1; index < argv.length; index += 1) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(argv[index]?.value ?? '')) continue;
      const end = argv.findIndex((word, at) => at > index && (word.value === ';' || word.value === '+'));
      const inner = argv.slice(index + 1, end < 0 ? argv.length : end);
      if (inner.length === 0) continue;
      forms.add(renderCommand(inner));
      const first = programName(inner[0]);
      if (first !== undefined && first.includes('/'))
        forms.add(
          renderCommand([
            { ...(inner[0] as ShellWord), value: basename(first), source: basename(first) },
            ...inner.slice(1),
          ]),
        );
    }
  }
  // `git -C dir --no-pager push`: a rule names the subcommand right after git; so does this reading.
  if (programName(argv[0]) !== undefined && basename(programName(argv[0]) as string) === 'git') {
    const at = gitSubcommandIndex(argv);
    if (at !== undefined && at > 1) forms.add(renderCommand([argv[0] as ShellWord, ...argv.slice(at)]));
  }
  return { forms: [...forms], argv, viaXargs, layers };
}

/** Programs that run another command in a way a prefix rule must not approve (exact rules only). */
export const EXACT_RULE_ONLY: ReadonlySet<string> = new Set([
  'watch',
  'setsid',
  'ionice',
  'flock',
  'eval',
  'exec',
  'source',
  '.',
  'sudo',
  'doas',
]);
