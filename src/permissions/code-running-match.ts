import { CODE_RUNNING_OPTIONS, type CodeRunningOption } from './code-running-options.js';
import { basename, optionValue, parse, SYNTAX, type Parsed, type Syntax } from './option-syntax.js';
import type { ShellWord } from './shell-words.js';

/** Finds an entry of the code-running table in a command's words, reading them as the program does. */

const BY_PROGRAM: ReadonlyMap<string, readonly CodeRunningOption[]> = (() => {
  const map = new Map<string, CodeRunningOption[]>();
  for (const entry of CODE_RUNNING_OPTIONS)
    for (const program of entry.program) map.set(program, [...(map.get(program) ?? []), entry]);
  return map;
})();

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
  if (entry.subcommands !== undefined && (subcommand === undefined || !entry.subcommands.includes(subcommand.value)))
    return false;
  const trigger = entry.trigger;
  switch (trigger.kind) {
    case 'always':
      return subcommand !== undefined && subcommand.index >= from;
    case 'option':
      return parsed.options.some(
        ({ word, next, index }) =>
          index >= from &&
          trigger.names.some((name) => {
            const found = optionValue(word, next, name, syntax);
            if (found === undefined) return false;
            if (trigger.unless !== undefined && found.value !== undefined && trigger.unless.test(found.value))
              return false;
            return trigger.when === undefined || (found.value !== undefined && trigger.when.test(found.value));
          }),
      );
    case 'argument':
      return [...parsed.operands, ...(subcommand === undefined ? [] : [subcommand])].some(
        ({ value, index }) => index >= from && trigger.pattern.test(value),
      );
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
  if (parsed.unknown.some((index) => index >= from))
    return { unknown: `an argument of ${program} only known at run time could be an option that runs code` };
  return undefined;
}
