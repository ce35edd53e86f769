import type { ShellCommand } from './bash-parser.js';
import { COMMAND_VARIABLES, isSafeAssignment } from './environment-variables.js';
import { launcherScriptOf, shellScriptOf } from './shell-launchers.js';
import { renderWord, type ShellWord } from './shell-words.js';

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

function programName(word: ShellWord | undefined): string | undefined {
  if (word === undefined || !word.static) return undefined;
  return word.value;
}

function basename(value: string): string {
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
  return { forms: [...forms], argv, viaXargs, layers };
}

/** `git -c key=value` settings whose value is a command git runs. */
const GIT_COMMAND_CONFIG =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|pager\.[^=]*|diff\.external|sequence\.editor|gpg\.program|credential\.helper|diff\.[^=.]*\.(?:textconv|command)|filter\.[^=.]*\.(?:clean|smudge|process))=\s*!?(.*)$/is;

/**
 * Command text that a command hands to a shell to run later or elsewhere, for deny and ask rules:
 * `eval …`, `trap 'cmd' SIG`, `alias x='cmd'`, `complete -C 'cmd'`, `bind -x '"\C-x":cmd'`,
 * `git -c alias.x='!cmd'`, and `sh -c` behind a wrapper only deny rules look through (`env`,
 * `sudo`). The outer command is still judged on its own.
 */
export function embeddedScriptsOf(command: ShellCommand): readonly string[] | 'dynamic' {
  const argv = command.words;
  const name = programName(argv[0]);
  const scripts: string[] = [];
  // `PAGER='rm -rf x' git log`, `GIT_SSH_COMMAND=… git fetch`: variables whose value git or a tool runs.
  for (const assignment of command.assignments) {
    if (!COMMAND_VARIABLES.test(assignment.name)) continue;
    if (!assignment.value.static) return 'dynamic';
    scripts.push(assignment.value.value);
  }
  const words = argv.slice(1);
  const staticOnly = (list: readonly ShellWord[]): boolean => list.every((word) => word.static);
  switch (name === undefined ? undefined : basename(name)) {
    case 'env':
    case 'export':
    case 'declare':
    case 'typeset':
    case 'readonly':
    case 'local': {
      // `env -S 'cmd args'` splits the string with quotes as a shell would: read it as a command line.
      const split =
        name === 'env'
          ? words.findIndex(
              (word) =>
                word.value === '-S' || word.value.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(word.value),
            )
          : -1;
      if (split >= 0) {
        const word = words[split] as ShellWord;
        const inline = word.value.startsWith('--split-string=')
          ? word.value.slice(15)
          : word.value.replace(/^-[a-zA-Z]*S/, '');
        const text = inline !== '' ? { ...word, value: inline } : words[split + 1];
        if (text !== undefined && !text.static) return 'dynamic';
        if (text !== undefined) scripts.push(text.value);
      }
      for (const word of words) {
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word.value);
        if (!assignment || !COMMAND_VARIABLES.test(assignment[1] as string)) continue;
        if (!word.static) return 'dynamic';
        // Declarations keep the value's source text: drop one level of quotes.
        const text = assignment[2] as string;
        scripts.push(word.value === word.source ? text.replace(/^'([\s\S]*)'$|^"([\s\S]*)"$/, '$1$2') : text);
      }
      break;
    }
    case 'eval':
      if (!staticOnly(words)) return 'dynamic';
      scripts.push(words.map((word) => word.value).join(' '));
      break;
    case 'trap':
      if (words[0] !== undefined && !words[0].value.startsWith('-')) {
        if (!words[0].static) return 'dynamic';
        scripts.push(words[0].value);
      }
      break;
    case 'alias':
      for (const word of words) {
        if (!word.static) return 'dynamic';
        const eq = word.value.indexOf('=');
        if (eq > 0) scripts.push(word.value.slice(eq + 1));
      }
      break;
    case 'complete':
    case 'compgen':
    case 'bind':
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        if (!word.static) return 'dynamic';
        if (word.value === '-C' || word.value === '-x') {
          const next = words[index + 1];
          if (next === undefined) continue;
          if (!next.static) return 'dynamic';
          scripts.push(name === 'bind' ? next.value.replace(/^[^:]*:/, '') : next.value);
        }
      }
      break;
    case 'git':
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        const value =
          word.value === '-c' ? words[index + 1]?.value : word.value.startsWith('-c') ? word.value.slice(2) : undefined;
        const match = value === undefined ? null : /^alias\.[^=]*=\s*!(.*)$/s.exec(value);
        if (match) scripts.push(match[1] as string);
        const program = value === undefined ? null : GIT_COMMAND_CONFIG.exec(value);
        if (program) scripts.push(program[1] as string);
      }
      break;
    case 'mapfile':
    case 'readarray':
      // `mapfile -C 'cmd' x`: bash runs the callback for every chunk of lines it reads.
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        const callback =
          word.value === '-C'
            ? words[index + 1]
            : /^-C./s.test(word.value)
              ? { ...word, value: word.value.slice(2) }
              : undefined;
        if (callback === undefined) continue;
        if (!callback.static) return 'dynamic';
        scripts.push(callback.value);
      }
      break;
    default:
      break;
  }
  const { argv: unwrapped, layers } = denyForms(command);
  // `su -c 'cmd'`, `script -c 'cmd'`, `flock f -c 'cmd'`, `watch 'cmd'` (also behind `sudo`): text handed to `sh -c`.
  for (const layer of layers) {
    const launched = launcherScriptOf(layer);
    if (launched === 'dynamic') return 'dynamic';
    if (launched !== undefined) scripts.push(launched);
  }
  if (programName(unwrapped[0]) !== undefined && basename(programName(unwrapped[0]) as string) === 'find') {
    // `find . -exec sh -c 'rm -rf …' \;`: the script find hands to a shell.
    for (let index = 1; index < unwrapped.length; index += 1) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(unwrapped[index]?.value ?? '')) continue;
      const script = shellScriptOf(unwrapped.slice(index + 1));
      if (script === 'dynamic') return 'dynamic';
      if (script !== undefined) scripts.push(script.script);
    }
  }
  const inner = shellScriptOf(unwrapped);
  if (inner === 'dynamic') return 'dynamic';
  if (inner !== undefined && shellScriptOf(allowView(command).argv) === undefined) scripts.push(inner.script);
  return scripts;
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
