import { platform } from 'node:os';
import type { ShellCommand } from './bash-parser.js';
import { denyForms } from './bash-wrappers.js';
import { expandBraces, segmentMatches } from './glob-patterns.js';

/**
 * The agent's own process: its environment holds the session's credentials, and so can its memory
 * and its command line. A Bash command that may read another process's environment, memory or
 * command line goes to a person in every mode, whatever the allow rules say. This looks at the
 * command's text, so spellings the path checks cannot resolve are caught too:
 * `/proc/self/./environ`, `/proc/$$/../$PPID/environ`, `"/proc/self/"environ`, `/proc/*\/env*`,
 * `/proc/self/{environ,x}`, `p=/proc/self; cat $p/environ`, `cd /proc/self && xxd environ`, and
 * `ps` forms that print environments (`ps e`, `ps eww`, `ps axe`, `ps -E`).
 */

/** The files of `/proc/<pid>/` (and `/proc/<pid>/task/<tid>/`) that hold secrets. */
const SECRET_FILES = ['environ', 'mem', 'cmdline'];

const MESSAGE = "it may read a process's environment, memory or command line, which hold credentials";

/** The command text as bash would see its words: quotes and backslashes removed, expansions as `*`. */
function unquoted(text: string): string {
  return text
    .replace(/\$\{[^}]*\}|\$\([^)]*\)|`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g, '*')
    .replace(/["'\\]/g, '');
}

/** Path-like tokens of the text: split at blanks, operators and `=` (`if=/proc/self/mem`). */
function tokens(text: string): string[] {
  return text.split(/[\s;&|<>()=]+/).filter((token) => token !== '');
}

function lastSegment(path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.at(-1) ?? '';
}

/** Whether the last segment of a pattern can name one of the secret files (`environ`, `env*`, `*`, `e?viron`). */
function namesSecretFile(token: string): boolean {
  const expanded = expandBraces(token) ?? [token];
  return expanded.some((one) => {
    const last = lastSegment(one);
    return last !== '' && SECRET_FILES.some((name) => segmentMatches(last, name));
  });
}

/** `/proc/…/<secret file>` in any spelling: the path after `/proc` ends in a segment that can name one. */
function procPathNamesSecret(token: string): boolean {
  const at = token.indexOf('/proc');
  if (at < 0) return false;
  const rest = token.slice(at + '/proc'.length);
  return rest.startsWith('/') && namesSecretFile(rest);
}

/**
 * Whether `ps` is asked to print environments: BSD-style `e` (`ps e`, `ps axe`), `-E`, and on
 * macOS `-e`; also behind a wrapper (`nice ps e`, `timeout 5 ps e`).
 */
function psShowsEnvironment(command: ShellCommand): boolean {
  const [program, ...args] = denyForms(command).argv;
  if (!program?.static || !/(^|\/)ps$/.test(program.value)) return false;
  return args.some((word) => {
    if (!word.static) return true;
    const value = word.value;
    if (/^[a-zA-Z]+$/.test(value)) return value.includes('e');
    if (/^-[a-zA-Z]+$/.test(value)) return value.includes('E') || (platform() === 'darwin' && value.includes('e'));
    return false;
  });
}

/**
 * Why a command may read a process's environment, memory or command line, or undefined.
 * `commands` are its simple commands (with those of nested scripts), for their folders and `ps`.
 */
export function processSecretReason(text: string, commands: readonly ShellCommand[]): string | undefined {
  const words = tokens(unquoted(text));
  if (words.some(procPathNamesSecret)) return MESSAGE;
  // `p=/proc/1; cat $p/environ`, `cd /proc && cat self/environ`: a path naming the file, with /proc elsewhere.
  if (text.includes('/proc') && words.some((word) => word.includes('/') && namesSecretFile(word))) return MESSAGE;
  // `cd /proc/self && xxd environ`, or a shell an earlier call left in /proc: the command's own operands.
  for (const command of commands) {
    if (!(command.cwds ?? []).some((cwd) => cwd === '/proc' || cwd.startsWith('/proc/'))) continue;
    if (command.words.slice(1).some((word) => !word.value.startsWith('-') && namesSecretFile(unquoted(word.source))))
      return MESSAGE;
  }
  if (commands.some(psShowsEnvironment)) return MESSAGE;
  return undefined;
}
