import type { FlagSpec } from './flag-table.js';

/** A flag's value: `true` for a boolean (or an optional value not given), the text, or every text of a `multiple`. */
export type FlagValue = true | string | readonly string[];

/** What {@link parseFlags} read: values by the flag's canonical name, in no particular order, and the positionals. */
export type ParsedFlags = {
  readonly values: ReadonlyMap<string, FlagValue>;
  readonly positionals: readonly string[];
};

/** A command-line mistake the parser found; the message names the flag and says what to do. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

/**
 * Parses `argv` against `table`: `--flag value`, `--flag=value`, `-x value`, grouped shorts
 * (`-pc`; a short that takes a value takes the rest of the group or the next argument), `--`
 * ending the flags, and positionals anywhere. A value flag takes the next argument whatever it
 * looks like (`--append-system-prompt -x` is text), except a known long flag. An unknown flag
 * throws a {@link FlagError} naming the closest known one.
 */
export function parseFlags(argv: readonly string[], table: readonly FlagSpec[]): ParsedFlags {
  const byLong = new Map<string, FlagSpec>();
  const byShort = new Map<string, FlagSpec>();
  for (const spec of table) {
    for (const name of [spec.name, ...(spec.aliases ?? [])]) byLong.set(name, spec);
    if (spec.short !== undefined) byShort.set(spec.short, spec);
  }
  const values = new Map<string, FlagValue>();
  const positionals: string[] = [];
  const set = (spec: FlagSpec, value: string | true) => {
    if (spec.kind === 'multiple') {
      const previous = values.get(spec.name);
      values.set(spec.name, [...(Array.isArray(previous) ? previous : []), String(value)]);
    } else values.set(spec.name, value);
  };
  const isKnownLong = (text: string | undefined) =>
    text !== undefined && text.startsWith('--') && byLong.has(text.slice(2).split('=')[0] ?? '');

  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const next = argv[index + 1];
    if (argument === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (argument.startsWith('--')) {
      const equals = argument.indexOf('=');
      const name = equals === -1 ? argument.slice(2) : argument.slice(2, equals);
      const spec = byLong.get(name);
      if (spec === undefined) throw new FlagError(unknownFlagMessage(`--${name}`, byLong.keys()));
      const inline = equals === -1 ? undefined : argument.slice(equals + 1);
      const taken = takeValue(spec, { label: `--${name}`, inline, next, nextIsFlag: isKnownLong(next) });
      if (taken.consumedNext) index++;
      set(spec, taken.value);
      continue;
    }
    if (argument.startsWith('-') && argument.length > 1) {
      for (let position = 1; position < argument.length; position++) {
        const letter = argument[position] ?? '';
        const spec = byShort.get(letter);
        if (spec === undefined) throw new FlagError(unknownShortMessage(letter, argument, byShort));
        const rest = argument.slice(position + 1);
        if (spec.kind === 'boolean' || spec.kind === 'optional-value') {
          // Inside a group (`-dp`) an optional value is not given; last in it, the next argument may be one.
          const taken =
            rest === ''
              ? takeValue(spec, { label: `-${letter}`, inline: undefined, next, nextIsFlag: isKnownLong(next) })
              : { value: true as const, consumedNext: false };
          if (taken.consumedNext) index++;
          set(spec, taken.value);
          continue;
        }
        const taken = takeValue(spec, {
          label: `-${letter}`,
          inline: rest === '' ? undefined : rest.replace(/^=/, ''),
          next,
          nextIsFlag: isKnownLong(next),
        });
        if (taken.consumedNext) index++;
        set(spec, taken.value);
        break;
      }
      continue;
    }
    positionals.push(argument);
  }
  return { values, positionals };
}

function takeValue(
  spec: FlagSpec,
  options: {
    readonly label: string;
    readonly inline: string | undefined;
    readonly next: string | undefined;
    readonly nextIsFlag: boolean;
  },
): { readonly value: string | true; readonly consumedNext: boolean } {
  const { label, inline, next } = options;
  switch (spec.kind) {
    case 'boolean':
      if (inline !== undefined) throw new FlagError(`${label} takes no value (got ${JSON.stringify(inline)}).`);
      return { value: true, consumedNext: false };
    case 'optional-value':
      if (inline !== undefined) return { value: inline, consumedNext: false };
      if (next !== undefined && spec.valuePattern?.test(next) === true) return { value: next, consumedNext: true };
      return { value: true, consumedNext: false };
    case 'string':
    case 'multiple':
      if (inline !== undefined) return { value: inline, consumedNext: false };
      if (next === undefined || options.nextIsFlag)
        throw new FlagError(`${label} needs a value${spec.valueName ? ` (${spec.valueName})` : ''}.`);
      return { value: next, consumedNext: true };
  }
}

function unknownFlagMessage(flag: string, names: Iterable<string>): string {
  const suggestion = closest(flag.slice(2), [...names]);
  return suggestion === undefined ? `unknown flag ${flag}` : `unknown flag ${flag}; did you mean --${suggestion}?`;
}

function unknownShortMessage(letter: string, argument: string, byShort: ReadonlyMap<string, FlagSpec>): string {
  const known = [...byShort.keys()].map((short) => `-${short}`).join(', ');
  const where = argument.length > 2 ? ` (in ${argument})` : '';
  return `unknown flag -${letter}${where}; the one-letter flags are ${known}`;
}

/** The name nearest to `name` by edit distance (case-insensitive), if it is near enough to be a likely typo. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
