import type { ShellWord } from './shell-words.js';

/** A command's words after the program, read by its {@link Spec}. */
export type ParsedArgs = {
  readonly flags: readonly string[];
  readonly values: ReadonlyMap<string, readonly ShellWord[]>;
  readonly positionals: readonly ShellWord[];
};

/** What the read-only set knows about one command's arguments. */
export type Spec = {
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

/** Reads a command's arguments by its spec; a string says why they are not understood as read-only. */
export function parseArgs(args: readonly ShellWord[], spec: Spec): ParsedArgs | string {
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
