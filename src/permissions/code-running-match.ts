import { CODE_RUNNING_OPTIONS, type CodeRunningOption, type OptionStyle } from './code-running-options.js';
import type { ShellWord } from './shell-words.js';

/**
 * Finds an entry of the code-running table in a command's words, reading options the way the
 * program does: its spellings and abbreviations, where its options end, which words are option
 * values and which word is the subcommand.
 */

/** How a program lays out its command line. */
type Syntax = {
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
};

const NPM: Syntax = { style: 'npm', subcommand: true, valueOptions: ['-w', '--workspace', '--prefix', '-C', '--userconfig', '--globalconfig', '--registry', '--cache', '--loglevel'], end: 'double-dash' };
const AWK: Syntax = { style: 'getopt', subcommand: false, valueOptions: ['-F', '-v', '-f', '-e', '--source', '-i', '-l', '--field-separator', '--assign', '--file', '--include', '--load'], end: 'double-dash' };
const SYNTAX: ReadonlyMap<string, Syntax> = new Map([
  ['npm', NPM],
  ['pnpm', NPM],
  ['npx', { style: 'npm', subcommand: false, valueOptions: ['-p', '--package', '-c', '--call', '--node-options', '--userconfig'], flagOptions: ['-y', '--yes', '--no', '--no-install', '--ignore-existing', '-q', '--quiet'], end: 'operand' }],
  // Node's options end at the script, but a script argument that looks like one asks too: safer than guessing.
  ['node', { style: 'node', subcommand: false, valueOptions: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-e', '--eval', '-p', '--print', '-C', '--conditions', '--input-type', '--test-reporter', '--test-reporter-destination', '--inspect-port', '--title'], end: 'double-dash' }],
  ['tar', { style: 'getopt', subcommand: false, valueOptions: ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '-I', '-F', '-b', '-g', '-K', '-L', '-N', '-V', '-H'], end: 'double-dash' }],
  ['make', { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' }],
  ['gmake', { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' }],
  ['go', { style: 'go', subcommand: true, valueOptions: ['-C'], end: 'double-dash' }],
  ['cargo', { style: 'exact', subcommand: true, valueOptions: ['-C', '--config', '-Z', '--color'], end: 'double-dash' }],
  ['git', { style: 'git', subcommand: true, valueOptions: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix'], end: 'double-dash', realOptions: ['--text'] }],
  ['man', { style: 'getopt', subcommand: false, valueOptions: ['-P', '-C', '-M', '-L', '-S', '-m', '-p', '-E', '-R'], end: 'double-dash' }],
  ['rsync', { style: 'exact', subcommand: false, valueOptions: ['-e', '-M', '-f', '-B', '-T'], end: 'double-dash' }],
  ['sed', { style: 'getopt', subcommand: false, valueOptions: ['-e', '--expression', '-f', '--file', '-l', '--line-length'], end: 'double-dash' }],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  [
    'find',
    {
      style: 'go',
      subcommand: false,
      valueOptions: ['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype', '-size', '-user', '-group', '-perm', '-newer', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-maxdepth', '-mindepth', '-printf', '-samefile', '-inum', '-links', '-uid', '-gid', '-fstype', '-regextype'],
      end: 'double-dash',
    },
  ],
  ['xargs', { style: 'getopt', subcommand: true, valueOptions: ['-n', '-I', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--replace', '--max-procs', '--max-lines', '--delimiter', '--eof', '--max-chars', '--arg-file', '--process-slot-var'], end: 'operand-after-subcommand' }],
  [
    'docker',
    {
      style: 'exact',
      subcommand: true,
      valueOptions: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '-e', '--env', '-v', '--volume', '--mount', '-p', '--publish', '-w', '--workdir', '-u', '--user', '--name', '--network', '--net', '--entrypoint', '--env-file', '--label', '--platform', '--pid', '--ipc', '--userns', '--cap-add', '--cap-drop', '--security-opt', '--device', '-m', '--memory', '--cpus', '--hostname', '-h', '--add-host', '--restart', '--tmpfs', '--ulimit', '--shm-size', '--gpus', '--runtime', '-f', '--file', '--project-directory', '--project-name'],
      flagOptions: ['--rm', '-i', '-t', '-it', '-ti', '-d', '--detach', '--init', '--privileged', '--read-only', '--interactive', '--tty', '-P', '--publish-all', '-q', '--quiet', '-a', '--all'],
      end: 'operand-after-subcommand',
    },
  ],
]);

const BY_PROGRAM: ReadonlyMap<string, readonly CodeRunningOption[]> = (() => {
  const map = new Map<string, CodeRunningOption[]>();
  for (const entry of CODE_RUNNING_OPTIONS) for (const program of entry.program) map.set(program, [...(map.get(program) ?? []), entry]);
  return map;
})();

function basename(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}

/** A word that could turn into an option at run time (`$X`, `"$(…)"`): its text starts with an expansion. */
function couldBeOption(word: ShellWord): boolean {
  return !word.static && /^["']?[$`]/.test(word.source);
}

type Parsed = {
  readonly subcommand: { readonly value: string; readonly index: number } | undefined;
  readonly options: readonly { readonly word: string; readonly next: string | undefined; readonly index: number }[];
  readonly operands: readonly { readonly value: string; readonly index: number }[];
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
  if (syntax.flagOptions === undefined || syntax.flagOptions.includes(name)) return false;
  // Where options end at the first operand, an unknown option may take the next word: assume so.
  return syntax.end !== 'double-dash' && name.startsWith('-');
}

/** Splits the words after the program into options, operands and the subcommand. */
function parse(argv: readonly ShellWord[], syntax: Syntax): Parsed {
  const options: { word: string; next: string | undefined; index: number }[] = [];
  const operands: { value: string; index: number }[] = [];
  const unknown: number[] = [];
  let subcommand: { value: string; index: number } | undefined;
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (couldBeOption(word)) unknown.push(index);
    const value = word.value;
    if (word.static && (value === '--' || (syntax.style === 'go' && (value === '-args' || value === '--args')))) break;
    if (word.static && value.startsWith('-') && value !== '-') {
      const written = normalize(value, syntax.style);
      options.push({ word: written, next: argv[index + 1]?.value, index });
      if (takesValue(written, syntax)) index += 1;
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
  return { subcommand, options, operands, unknown };
}

/** The value an option written as `word` (followed by `next`) gives `name`, or undefined when it is not that option. */
function optionValue(word: string, next: string | undefined, name: string, syntax: Syntax): { readonly value: string | undefined } | undefined {
  const eq = word.indexOf('=');
  const written = eq < 0 ? word : word.slice(0, eq);
  const inline = eq < 0 ? undefined : word.slice(eq + 1);
  const long = name.startsWith('--') || (syntax.style === 'go' && name.length > 2);
  if (long) {
    const spellings = syntax.style === 'go' ? [name, `-${name}`] : [name];
    if (spellings.includes(written)) return { value: inline ?? next };
    const prefixes = syntax.style === 'getopt' || syntax.style === 'git' || syntax.style === 'npm';
    if (prefixes && written.startsWith('--') && written.length >= 4 && name.startsWith(written) && !(syntax.realOptions ?? []).includes(written)) return { value: inline ?? next };
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

/** The program texts of sed and awk: `-e`/`--expression`/`--source` values, else the first operand. */
function programTexts(parsed: Parsed, syntax: Syntax): { readonly text: string; readonly index: number }[] {
  const texts: { text: string; index: number }[] = [];
  let fromFile = false;
  for (const { word, next, index } of parsed.options) {
    for (const name of ['-e', '--expression', '--source']) {
      const found = optionValue(word, next, name, syntax);
      if (found?.value !== undefined) texts.push({ text: found.value, index });
    }
    if (optionValue(word, next, '-f', syntax) || optionValue(word, next, '--file', syntax)) fromFile = true;
  }
  const first = parsed.operands[0];
  if (texts.length === 0 && !fromFile && first !== undefined) texts.push({ text: first.value, index: first.index });
  return texts;
}

/** What an entry found: the entry, or `unknown` when a word known only at run time could be one. */
export type CodeRunningMatch = { readonly entry: CodeRunningOption } | { readonly unknown: string };

/** Whether one entry applies to the parsed words at or after index `from`. */
function applies(entry: CodeRunningOption, parsed: Parsed, syntax: Syntax, from: number): boolean {
  const subcommand = parsed.subcommand;
  if (entry.subcommands !== undefined && (subcommand === undefined || !entry.subcommands.includes(subcommand.value))) return false;
  const trigger = entry.trigger;
  switch (trigger.kind) {
    case 'always':
      return subcommand !== undefined && subcommand.index >= from;
    case 'option':
      return parsed.options.some(({ word, next, index }) =>
        index >= from &&
        trigger.names.some((name) => {
          const found = optionValue(word, next, name, syntax);
          if (found === undefined) return false;
          if (trigger.unless !== undefined && found.value !== undefined && trigger.unless.test(found.value)) return false;
          return trigger.when === undefined || (found.value !== undefined && trigger.when.test(found.value));
        }),
      );
    case 'argument':
      return [...parsed.operands, ...(subcommand === undefined ? [] : [subcommand])].some(({ value, index }) => index >= from && trigger.pattern.test(value));
    case 'program-text':
      return programTexts(parsed, syntax).some(({ text, index }) => index >= from && trigger.pattern.test(text));
  }
}

/**
 * The first entry of the code-running table that `argv` uses, looking only at the words from
 * index `from` on (the words an allow rule spells out are the person's own choice).
 */
export function codeRunningOptionIn(argv: readonly ShellWord[], from = 1): CodeRunningMatch | undefined {
  const program = argv[0]?.static ? basename(argv[0].value) : undefined;
  const entries = program === undefined ? undefined : BY_PROGRAM.get(program);
  const syntax = program === undefined ? undefined : SYNTAX.get(program);
  if (entries === undefined || syntax === undefined) return undefined;
  const parsed = parse(argv, syntax);
  const entry = entries.find((candidate) => applies(candidate, parsed, syntax, Math.max(1, from)));
  if (entry !== undefined) return { entry };
  if (parsed.unknown.some((index) => index >= from)) return { unknown: `an argument of ${program} only known at run time could be an option that runs code` };
  return undefined;
}
