import type { ShellWord } from './shell-words.js';

/**
 * What a program's options do besides its operands, for the programs whose allow rules would
 * otherwise hide it. Files read or written through an option (`allow Bash(git log:*)` and
 * `git log --output=~/.bashrc`; `allow Bash(git diff:*)` and `git diff --no-index ~/.ssh/id_rsa x`).
 * Like a redirect target, a file written this way needs its own approval; a file read this way is
 * checked against Read rules and the working folders.
 */

const NPM_PROGRAMS: ReadonlySet<string> = new Set(['npm', 'npx', 'pnpm', 'yarn']);

/** The index of git's subcommand (after its global options), or -1. */
function gitSubcommand(argv: readonly ShellWord[]): number {
  if (argv[0]?.value !== 'git') return -1;
  for (let index = 1; index < argv.length; index += 1) {
    const value = argv[index]?.value ?? '';
    if (!value.startsWith('-')) return index;
    // Global options that take the next word: `-C dir`, `-c key=value`, `--git-dir dir`, …
    if (/^(-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/.test(value)) index += 1;
  }
  return -1;
}

/** `--output FILE` and its unambiguous prefixes (`--out=FILE`), as git's option parser accepts them. */
const GIT_OUTPUT = /^--out(?:p(?:u(?:t)?)?)?(?:=|$)/;

/** npm's configuration options that name a folder npm writes to: its cache and its logs. */
const NPM_WRITE_OPTIONS = ['cache', 'logs-dir'];

/** Files npm writes through `--cache DIR` and `--logs-dir DIR` (and their prefixes), before any `--`. */
function npmWriteTargets(argv: readonly ShellWord[]): ShellWord[] {
  const targets: ShellWord[] = [];
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (word.value === '--') break;
    if (!word.value.startsWith('--')) continue;
    const eq = word.value.indexOf('=');
    const name = word.value.slice(2, eq < 0 ? undefined : eq);
    if (name.length < 3 || !NPM_WRITE_OPTIONS.some((option) => option.startsWith(name))) continue;
    if (eq >= 0) targets.push({ ...word, value: word.value.slice(eq + 1), source: word.source.slice(word.source.indexOf('=') + 1) });
    else if (argv[index + 1] !== undefined) targets.push(argv[index + 1] as ShellWord);
  }
  return targets;
}

/** Files git writes through `--output` (log, diff, show, format-patch, …) and npm through `--cache` and `--logs-dir`. */
export function optionWriteTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
  if (NPM_PROGRAMS.has(argv[0]?.value ?? '')) return npmWriteTargets(argv);
  const sub = gitSubcommand(argv);
  if (sub < 0) return [];
  const targets: ShellWord[] = [];
  for (let index = sub + 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (word.value === '--') break;
    if (!GIT_OUTPUT.test(word.value)) continue;
    const eq = word.value.indexOf('=');
    if (eq >= 0) targets.push({ ...word, value: word.value.slice(eq + 1), source: word.source.slice(word.source.indexOf('=') + 1) });
    else if (argv[index + 1] !== undefined) targets.push(argv[index + 1] as ShellWord);
  }
  return targets;
}

/** git subcommands that take diff options, where `-O<orderfile>` reads a file. */
const GIT_DIFF_COMMANDS: ReadonlySet<string> = new Set(['diff', 'log', 'show', 'format-patch', 'range-diff', 'diff-tree', 'diff-files', 'diff-index', 'whatchanged']);

/**
 * Options whose value is a file git reads, by subcommand: `-O` for the diff family; `-S`,
 * `--ignore-revs-file` and `--contents` for blame; `-f` (patterns) for grep.
 */
function gitFileOptions(sub: string): readonly string[] {
  if (GIT_DIFF_COMMANDS.has(sub)) return ['-O'];
  if (sub === 'blame' || sub === 'annotate') return ['-S', '--ignore-revs-file', '--contents'];
  if (sub === 'grep') return ['-f'];
  return [];
}

/**
 * Files read by name through an option: the operands of `git diff`, which may be any file
 * (`--no-index`, also implied when one is outside the repository); `git diff -O<orderfile>`; `git blame -S <revs-file>`, `--ignore-revs-file`, `--contents`; `git grep -f <file>`.
 */
export function optionReadTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
  const sub = gitSubcommand(argv);
  if (sub < 0) return [];
  const name = argv[sub]?.value ?? '';
  const reads: ShellWord[] = [];
  const options = gitFileOptions(name);
  for (let index = sub + 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (word.value === '--') break;
    for (const option of options) {
      if (word.value === option) {
        const next = argv[index + 1];
        if (next !== undefined) reads.push(next);
      } else if (word.value.startsWith(option.startsWith('--') ? `${option}=` : option)) {
        const value = word.value.slice(option.length + (option.startsWith('--') ? 1 : 0));
        reads.push({ ...word, value, source: value });
      }
    }
  }
  // `git diff a b` compares the files themselves (an implied --no-index) when one lies outside the
  // repository, so each operand may be a file read, whatever the options say.
  if (name === 'diff') reads.push(...argv.slice(sub + 1).filter((word) => !word.value.startsWith('-') && word.value !== '/dev/null'));
  return reads;
}

/**
 * npm's configuration options that run other code than the script a rule names, per the npm
 * config reference (docs.npmjs.com/cli/using-npm/config): `node-options` (passed to every node it
 * starts as NODE_OPTIONS), `script-shell` (runs the script), `prefix` (another project's scripts),
 * `userconfig` and `globalconfig` (config files that can set the others). npm's option parser also
 * takes unambiguous prefixes (`--node-opt`).
 */
const NPM_CODE_OPTIONS = ['node-options', 'script-shell', 'prefix', 'userconfig', 'globalconfig'];

/**
 * Why an option makes the program run code a prefix rule did not name (`npm test --node-options=…`
 * under `allow Bash(npm test:*)`), or undefined. Only an exact rule approves such a command.
 */
export function optionRunsCode(argv: readonly ShellWord[]): string | undefined {
  if (!NPM_PROGRAMS.has(argv[0]?.value ?? '')) return undefined;
  for (const word of argv.slice(1)) {
    if (word.value === '--') break;
    if (!word.static) return `${word.source} could be an npm option that runs other code`;
    if (word.value === '-C') return 'npm -C runs another folder\'s scripts';
    if (!word.value.startsWith('--')) continue;
    const eq = word.value.indexOf('=');
    const name = word.value.slice(2, eq < 0 ? undefined : eq);
    if (name.length >= 3 && NPM_CODE_OPTIONS.some((option) => option.startsWith(name))) return `npm --${name} makes npm run other code than the script`;
  }
  return undefined;
}
