import { JS_CODE_RUNNING_OPTIONS } from './code-running-js.js';
import { ARCHIVE_AND_BUILD_CODE_RUNNING_OPTIONS } from './code-running-archives-builds.js';
import { GIT_CODE_RUNNING_OPTIONS } from './code-running-git.js';
import { SHELL_TOOL_CODE_RUNNING_OPTIONS } from './code-running-shell-tools.js';

/**
 * Options (and a few argument forms) that make a common developer tool run code the command line
 * does not show: another file, program, module or configuration. An allow rule such as
 * `Bash(npm test:*)` or `Bash(git fetch:*)` approves the tool doing its job, not running that code,
 * so when one of these appears the prefix match no longer approves the command (it asks; a rule
 * that spells out the whole command still does). One entry per option, each with its source
 * and a corpus case (an attack the rule must not approve, and a look-alike it must).
 */

/** How a program reads its options, which decides which spellings reach an option. */
export type OptionStyle =
  /** GNU getopt_long: `--name`, `--name=v`, unambiguous prefixes `--na`, short clusters `-xvf`. */
  | 'getopt'
  /** git's parse-options: like getopt, prefixes included. */
  | 'git'
  /** npm's nopt: `--name`, `--name=v`, prefixes, and `_` for `-`. */
  | 'npm'
  /** Node.js: `--name`, `--name=v`, `_` for `-` (its documentation says so), short clusters `-pe`. */
  | 'node'
  /** Go's flag package: `-name`, `--name`, `-name=v`; no clusters, no prefixes. */
  | 'go'
  /** clap, cobra/pflag, popt: `--name`, `--name=v`, short clusters; no prefixes. */
  | 'exact';

/** What makes the entry apply. */
export type CodeTrigger =
  /**
   * Any of these option spellings (long `--x`, short `-x`, or single-dash long `-x` for go and
   * find). With `unless`, a value matching it is harmless (`rsync -e ssh`, `man -P cat`); with
   * `when`, only a value matching it runs code (`go build -ldflags=-extld=…`).
   */
  | { readonly kind: 'option'; readonly names: readonly string[]; readonly unless?: RegExp; readonly when?: RegExp }
  /** Always, once the subcommand matches (xargs's command is its "subcommand"). */
  | { readonly kind: 'always' }
  /** A non-option argument matching the pattern (`make CC=…`, `git clone ext::…`). */
  | { readonly kind: 'argument'; readonly pattern: RegExp }
  /** The program text the tool runs (sed's and awk's scripts), by a pattern over it. */
  | { readonly kind: 'program-text'; readonly pattern: RegExp };

/** One entry of the table. */
export type CodeRunningOption = {
  readonly program: readonly string[];
  /** The subcommands (first word that is not an option) it applies to; every one when absent. */
  readonly subcommands?: readonly string[];
  readonly trigger: CodeTrigger;
  /** What it runs, in words, for the person who is asked. */
  readonly runs: string;
  /** Where the behaviour is documented. */
  readonly source: string;
  /** The corpus case: the allow rule, a command it must not approve, and one it still must. */
  readonly example: { readonly rule: string; readonly attack: string; readonly lookAlike: string };
};

/** The table, by program. Entries for a program are tried in order. */
export const CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
  ...JS_CODE_RUNNING_OPTIONS,
  ...ARCHIVE_AND_BUILD_CODE_RUNNING_OPTIONS,
  ...GIT_CODE_RUNNING_OPTIONS,
  ...SHELL_TOOL_CODE_RUNNING_OPTIONS,
];
