import type { ShellCommand } from './bash-parser.js';
import { isIdentifier, variablesNamedBy, variablesSetBy } from './shell-assignments.js';

/**
 * Code bash evaluates where a reading of words sees data. A variable name with a subscript
 * (`a[$(id)]`) given to `test -v`, `printf -v`, `read`, `declare`, `let` or `unset` has its
 * subscript evaluated as arithmetic, and arithmetic runs the command substitutions it meets;
 * so does arithmetic on a variable whose value holds such text (`x='a[$(id)]'; echo $((x))`), a
 * nameref to it, and an assignment to a `declare -i` variable. Each is a concern: tried against
 * bash 5.2, every form here ran the command (see the corpus).
 */

/** Text that, evaluated as arithmetic, can run a command. */
const CODE_IN_ARITHMETIC = /[[`]|\$\(/;

/** Identifiers an arithmetic expression refers to (`x+y*2` → x, y). */
function identifiersIn(expression: string): string[] {
  return [...expression.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].map((match) => match[0]);
}

/** What one script evaluates as code: why, and the texts bash evaluates (to check their commands too). */
export type EvaluatedCode = {
  readonly concerns: readonly string[];
  readonly texts: readonly { readonly text: string; readonly command: ShellCommand }[];
};

/**
 * Reasons the commands of one script evaluate text as code where it looks like data.
 * `arithmeticNames` are the variables the script's `$((…))` expansions read.
 */
export function evaluatedCode(commands: readonly ShellCommand[], arithmeticNames: ReadonlySet<string>): EvaluatedCode {
  const concerns = new Set<string>();
  const texts: { text: string; command: ShellCommand }[] = [];
  const evaluates = (text: string, command: ShellCommand): void => {
    if (CODE_IN_ARITHMETIC.test(text)) texts.push({ text, command });
  };
  const read = new Set(arithmeticNames);
  const unseen = new Set<string>();
  const integers = new Set<string>();
  for (const command of commands) {
    for (const set of variablesSetBy(command)) {
      const shown = set.name.slice(0, 60);
      if (set.by !== 'env' && set.by !== 'sudo' && set.by !== 'doas' && !isIdentifier(set.name)) {
        concerns.add(`${set.by} sets ${shown}, whose subscript bash evaluates as arithmetic, which can run commands`);
        evaluates(set.name, command);
      }
      const value = set.value;
      const codeLike = value === undefined || !value.static || CODE_IN_ARITHMETIC.test(value.value);
      if (codeLike) unseen.add(set.name);
      if (value?.static) evaluates(value.value, command);
      if (set.flags.includes('n') && value !== undefined && !(value.static && isIdentifier(value.value))) {
        concerns.add(
          `${set.by} -n makes ${shown} a reference to ${value.source.slice(0, 60)}, which bash evaluates when it is used`,
        );
      }
      if (set.flags.includes('i')) {
        integers.add(set.name);
        if (value !== undefined && codeLike)
          concerns.add(`${set.by} evaluates ${value.source.slice(0, 60)} as arithmetic, which can run commands`);
        if (value !== undefined && value.static)
          for (const name of identifiersIn(value.value.slice(value.value.indexOf('=') + 1))) read.add(name);
      }
      // `declare -a a='([$(id)]=1)'`: a quoted array value is read again as shell code.
      if (set.by !== 'an assignment' && value?.quoted && value.value.trimStart().startsWith('(')) {
        concerns.add(
          `${set.by} reads the quoted value of ${shown} again as an array assignment, which can run commands`,
        );
      }
    }
    for (const { name, by } of variablesNamedBy(command)) {
      if (!name.static || !isIdentifier(name.value)) {
        concerns.add(
          `${by} ${name.source.slice(0, 60)} has bash evaluate a subscript as arithmetic, which can run commands`,
        );
        if (name.static) evaluates(name.value, command);
      }
    }
    const program = command.words[0];
    if (program?.static && program.value === 'let') {
      for (const word of command.words.slice(1)) {
        if (!word.static || CODE_IN_ARITHMETIC.test(word.value))
          concerns.add(`let evaluates ${word.source.slice(0, 60)} as arithmetic, which can run commands`);
        if (word.static) evaluates(word.value, command);
        else for (const name of identifiersIn(word.value)) read.add(name);
      }
    }
  }
  for (const name of read) {
    if (unseen.has(name))
      concerns.add(`arithmetic evaluates the value of ${name}, which this command sets to text that can run commands`);
  }
  for (const name of integers) {
    if (unseen.has(name))
      concerns.add(`${name} is an integer variable, so bash evaluates the text assigned to it as arithmetic`);
  }
  // Values are only evaluated when a concern says so: a plain `x='$(…)'` stays data.
  return { concerns: [...concerns], texts: concerns.size > 0 ? texts : [] };
}
