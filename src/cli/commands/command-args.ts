import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../args.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The values `parseArgs` gives for `T`'s flags. */
export type CommandValues<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true }>
>['values'];

/** A subcommand's flags, strict; a flag it does not know is a usage error (exit 2), not a crash. */
export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T): CommandValues<T> {
  try {
    return parseArgs({ args: [...argv], options, strict: true }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** As {@link parseCommandArgs}, for a subcommand that also takes operands (files): the flags, and the operands in order. */
export function parseCommandOperands<T extends Options>(
  argv: readonly string[],
  options: T,
): { readonly values: CommandValues<T>; readonly operands: readonly string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { values: parsed.values as CommandValues<T>, operands: parsed.positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
