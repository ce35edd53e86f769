import { GIT_DATA_PATH_OPTIONS } from './data-paths-git.js';
import { ARCHIVE_DATA_PATH_OPTIONS } from './data-paths-archives.js';
import { NETWORK_DATA_PATH_OPTIONS } from './data-paths-network.js';
import { TEXT_TOOL_DATA_PATH_OPTIONS } from './data-paths-text-tools.js';
import { COMPILER_DATA_PATH_OPTIONS } from './data-paths-compilers.js';

/**
 * Files a program reads or writes that are not its plain operands: option values (`-F FILE`,
 * `-o FILE`, `--output=FILE`), `@FILE` response files, names read from a list or from stdin
 * (`--files-from`, `--stdin`, `-@`), and the files a sed or awk script names. They are checked
 * like redirections: deny rules (a Read deny also covers writes) and protected paths apply in
 * every mode, a path outside the working folders needs approval, and names that cannot be known
 * (a list, stdin) are a concern when a deny rule could cover one of them.
 */

/** What the program does with the file. */
export type DataAccess =
  | 'read'
  | 'write'
  /** A folder it writes files into (`tar -C DIR` when extracting, `wget -P DIR`). */
  | 'write-folder'
  /** A file holding the names of other files it reads; `-` or no file means stdin. */
  | 'list';

/** Where the path is on the command line. */
export type DataTrigger =
  /** The value of one of these options; with `prefix`, only a value starting with it, which is stripped (`-d @FILE`). */
  | { readonly kind: 'option'; readonly names: readonly string[]; readonly prefix?: RegExp }
  /** One of these options alone: names come from stdin. */
  | { readonly kind: 'flag'; readonly names: readonly string[] }
  /** Operands (words that are not options): all, the first, the last, or all but the first or last. */
  | { readonly kind: 'operands'; readonly which: 'all' | 'first' | 'last' | 'all-but-first' | 'all-but-last' }
  /** Operands written `@FILE` (compiler response files). */
  | { readonly kind: 'at-file' };

/** One entry. `access` may depend on the command (`tar -x` reads its archive, `tar -c` writes it). */
export type DataPathOption = {
  readonly program: readonly string[];
  readonly subcommands?: readonly string[];
  readonly trigger: DataTrigger;
  readonly access: DataAccess | 'archive';
  readonly what: string;
  readonly source: string;
  /** The corpus case: the allow rule, an attack (with deny Read(./.env) and Read(~/.ssh/**)), and a look-alike. */
  readonly example: {
    readonly rule: string;
    readonly attack: string;
    readonly expect: 'deny' | 'ask';
    readonly lookAlike: string;
    readonly extraRules?: readonly string[];
  };
};

export const DATA_PATH_OPTIONS: readonly DataPathOption[] = [
  ...GIT_DATA_PATH_OPTIONS,
  ...ARCHIVE_DATA_PATH_OPTIONS,
  ...NETWORK_DATA_PATH_OPTIONS,
  ...TEXT_TOOL_DATA_PATH_OPTIONS,
  ...COMPILER_DATA_PATH_OPTIONS,
];
