import type { ShellCommand } from './bash-parser.js';
import type { ShellWord } from './shell-words.js';

/**
 * Every shell variable one command sets, however it is spelled: `NAME=value` in front of a command
 * or alone, `export`/`declare`/`typeset`/`local`/`readonly`, `env NAME=value`, `printf -v NAME`,
 * `read NAME`, `mapfile NAME`, `getopts … NAME`, `wait -p NAME` and `let NAME=…`.
 */

/** One variable a command sets. */
export type VariableSet = {
  /** The name as written, after quote removal (`a[$(id)]` is a name too: bash evaluates its subscript). */
  readonly name: string;
  /** The value when the command line holds it; `undefined` when it comes from input or a computation. */
  readonly value: ShellWord | undefined;
  /** The builtin or form that sets it, for messages. */
  readonly by: string;
  /** Declaration flags given with it (`-i`, `-n`, `-a`, `-x`, …), letters only. */
  readonly flags: string;
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a variable name is a plain identifier (no subscript bash would evaluate). */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

const DECLARATIONS: ReadonlySet<string> = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
const READ_VALUE_FLAGS = /^-[ersE]*[dinNptu]$/;

function plain(value: string): ShellWord {
  return { value, static: true, glob: false, quoted: false, source: value };
}

/** `NAME=value` (or `NAME+=value`) split into name and value; the value keeps the word's static-ness. */
function splitAssignment(word: ShellWord): { readonly name: string; readonly value: ShellWord | undefined } {
  const eq = word.value.indexOf('=');
  if (eq < 0) return { name: word.value, value: undefined };
  const name = word.value.slice(0, eq).replace(/\+$/, '');
  const text = word.value.slice(eq + 1);
  // Declarations keep their source text: drop one level of quotes from the value.
  const value = word.value === word.source ? text.replace(/^'([\s\S]*)'$|^"([\s\S]*)"$/, '$1$2') : text;
  return { name, value: { ...word, value, source: value } };
}

function programOf(command: ShellCommand): { readonly name: string | undefined; readonly args: readonly ShellWord[] } {
  let words = command.words;
  // `builtin read x`, `command printf -v x`: the same builtins.
  while (
    words.length > 1 &&
    words[0]?.static &&
    (words[0].value === 'builtin' || words[0].value === 'command') &&
    !/^-[vV]/.test(words[1]?.value ?? '')
  ) {
    words = words.slice(1);
    while (words[0]?.static && /^-p$|^--$/.test(words[0].value)) words = words.slice(1);
  }
  const first = words[0];
  return { name: first?.static ? first.value : undefined, args: words.slice(1) };
}

/** The variables `command` sets, in the order written. */
export function variablesSetBy(command: ShellCommand): VariableSet[] {
  const sets: VariableSet[] = command.assignments.map((assignment) => ({
    name: assignment.name,
    value: assignment.value,
    by:
      command.words.length === 0
        ? 'an assignment'
        : `an assignment in front of ${command.words[0]?.source ?? 'a command'}`,
    flags: '',
  }));
  const { name, args } = programOf(command);
  if (name === undefined) return sets;
  if (DECLARATIONS.has(name)) {
    let flags = '';
    for (const word of args) {
      if (word.static && /^[-+][A-Za-z]+$/.test(word.value)) {
        if (word.value.startsWith('-')) flags += word.value.slice(1);
        continue;
      }
      if (word.value === '--') continue;
      sets.push({ ...splitAssignment(word), by: name, flags });
    }
  } else if (name === 'env' || name === 'sudo' || name === 'doas') {
    // `env NAME=value cmd`, `sudo NAME=value cmd`: the leading NAME=value words are the child's environment.
    for (let index = 0; index < args.length; index += 1) {
      const word = args[index] as ShellWord;
      if (word.static && word.value.startsWith('-')) {
        if (/^(-[uCgphrtUDT]|--unset|--chdir|--user|--group)$/.test(word.value)) index += 1;
        continue;
      }
      if (!/^[^=\s]+=/.test(word.value)) break;
      sets.push({ ...splitAssignment(word), by: name, flags: 'x' });
    }
  } else if (name === 'printf') {
    for (let index = 0; index < args.length; index += 1) {
      const word = args[index] as ShellWord;
      if (word.value === '--' || !word.value.startsWith('-')) break;
      if (word.value === '-v')
        sets.push({ name: args[index + 1]?.value ?? '', value: undefined, by: 'printf -v', flags: '' });
      else if (word.value.startsWith('-v'))
        sets.push({ name: word.value.slice(2), value: undefined, by: 'printf -v', flags: '' });
    }
  } else if (name === 'read') {
    for (let index = 0; index < args.length; index += 1) {
      const word = args[index] as ShellWord;
      if (word.static && word.value.startsWith('-') && word.value !== '-') {
        if (/^-[ersE]*a$/.test(word.value))
          sets.push({ name: args[index + 1]?.value ?? '', value: undefined, by: 'read -a', flags: 'a' });
        if (/^-[ersE]*a$/.test(word.value) || READ_VALUE_FLAGS.test(word.value)) index += 1;
        continue;
      }
      sets.push({ name: word.value, value: undefined, by: 'read', flags: '' });
    }
  } else if (name === 'mapfile' || name === 'readarray') {
    const positionals = args.filter(
      (word, index) => !(word.value.startsWith('-') || /^-[dnOsuCc]$/.test(args[index - 1]?.value ?? '')),
    );
    sets.push({ name: positionals.at(-1)?.value ?? 'MAPFILE', value: undefined, by: name, flags: 'a' });
  } else if (name === 'getopts' && args[1] !== undefined) {
    sets.push({ name: args[1].value, value: undefined, by: 'getopts', flags: '' });
  } else if (name === 'wait') {
    const at = args.findIndex((word) => word.value === '-p');
    if (at >= 0) sets.push({ name: args[at + 1]?.value ?? '', value: undefined, by: 'wait -p', flags: '' });
  } else if (name === 'let') {
    for (const word of args) {
      const match = /^([^=+\-*/%<>&|^!~]+)(?:[-+*/%&|^]|<<|>>)?=(?!=)/.exec(word.value);
      if (match) sets.push({ name: (match[1] as string).trim(), value: plain(word.value), by: 'let', flags: 'i' });
    }
  }
  return sets;
}

/** Variable-name operands of builtins that only read a variable (`test -v NAME`, `unset NAME`). */
export function variablesNamedBy(command: ShellCommand): { readonly name: ShellWord; readonly by: string }[] {
  const { name, args } = programOf(command);
  const named: { name: ShellWord; by: string }[] = [];
  if (name === 'test' || name === '[') {
    args.forEach((word, index) => {
      const next = args[index + 1];
      if (word.static && (word.value === '-v' || word.value === '-R') && next !== undefined && next.value !== ']')
        named.push({ name: next, by: `${name} ${word.value}` });
    });
  } else if (name === 'unset') {
    if (args.some((word) => word.static && /^-[a-z]*f/.test(word.value))) return named;
    for (const word of args) if (!(word.static && word.value.startsWith('-'))) named.push({ name: word, by: 'unset' });
  }
  return named;
}
