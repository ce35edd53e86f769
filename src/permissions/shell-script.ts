import type { ShellWord } from './shell-words.js';

/** The result of parsing a command line, as permissions see it. */

/** A leading `NAME=value` on a command. */
export type ShellAssignment = { readonly name: string; readonly value: ShellWord };

/** One simple command, wherever it sits (list, pipeline, subshell, substitution, …). */
export type ShellCommand = {
  readonly assignments: readonly ShellAssignment[];
  readonly words: readonly ShellWord[];
  readonly text: string;
  /** Every folder the command may run in (after `cd`s); `undefined` when that cannot be known. */
  readonly cwds: readonly string[] | undefined;
  /** Inside `$(…)`, backticks or `<(…)`. */
  readonly nested: boolean;
};

/** A redirection to or from a file (descriptor duplications are not listed). */
export type ShellRedirect = {
  readonly operator: string;
  readonly target: ShellWord;
  readonly writes: boolean;
  readonly cwds: readonly string[] | undefined;
};

/** Everything a command line does that permissions look at. */
export type ShellScript = {
  readonly commands: readonly ShellCommand[];
  readonly redirects: readonly ShellRedirect[];
  /** Reasons the analysis cannot vouch for the command (each one fails closed). */
  readonly concerns: readonly string[];
  /** Variables the command's arithmetic reads (bash evaluates their values as arithmetic too). */
  readonly arithmeticNames: readonly string[];
};
