import type { ShellWord } from './shell-words.js';

/**
 * Programs that start a shell on a script given as text: `sh -c`, `bash -c`, `zsh -c`, `dash -c`,
 * `busybox sh -c`, and those that hand their argument to `sh -c` themselves (`su -c`,
 * `runuser -c`, `script -c`, `flock -c`, `watch`). The script is parsed and checked; the
 * launcher's own flags decide whether it is only a carrier for the script.
 */

const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);

function basename(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash < 0 ? value : value.slice(slash + 1);
}

/** A script a shell runs, and what the shell runs besides it. */
export type ShellScriptText = {
  readonly script: string;
  /**
   * Startup files the shell reads before the script (`-i`, `-l`, `--login`): the user's own files,
   * so the launcher is no longer a mere carrier and needs approval of its own.
   */
  readonly startup?: string;
  /** A startup file the command names (`--rcfile FILE`, `--init-file FILE`): a script nobody has seen. */
  readonly unseenStartup?: string;
};

/** The script of `sh -c '…'`-style commands: its text, `dynamic` when computed, else undefined. */
export function shellScriptOf(argv: readonly ShellWord[]): ShellScriptText | 'dynamic' | undefined {
  const first = argv[0];
  if (first === undefined || !first.static) return undefined;
  // `busybox sh -c …` is `sh -c …`.
  if (basename(first.value) === 'busybox') return shellScriptOf(argv.slice(1));
  if (!SHELLS.has(basename(first.value))) return undefined;
  let sawC = false;
  let sawS = false;
  let startup: string | undefined;
  let unseenStartup: string | undefined;
  let index = 1;
  for (; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static) return 'dynamic';
    const value = word.value;
    if (value === '--' || value === '-') {
      index += 1;
      break;
    }
    if (value.startsWith('--')) {
      // `--rcfile FILE` and `--init-file FILE` take a value; the other long options are switches.
      if (value === '--rcfile' || value === '--init-file') {
        const file = argv[index + 1];
        if (file === undefined || !file.static || file.value !== '/dev/null')
          unseenStartup = `${value} ${file?.source ?? ''}`.trim();
        index += 1;
      } else if (/^--(rcfile|init-file)=/.test(value)) {
        if (!value.endsWith('=/dev/null')) unseenStartup = value;
      } else if (value === '--login' || value === '--debugger') {
        startup = value;
      }
      continue;
    }
    if (!/^[-+][a-zA-Z]+$/.test(value)) break;
    if (value.startsWith('-') && value.includes('c')) sawC = true;
    if (value.includes('s')) sawS = true;
    if (value.startsWith('-') && /[il]/.test(value)) startup = value;
    // `-O shopt`, `+O shopt`, `-o option` and `+o option` take the next word.
    if (/[oO]/.test(value)) index += 1;
  }
  const script = argv[index];
  // With no script and no -c (or with -s), the shell reads commands from input nobody has seen.
  if (!sawC) return script === undefined || sawS ? 'dynamic' : undefined;
  if (script === undefined) return undefined;
  if (!script.static) return 'dynamic';
  return { script: script.value, ...(startup ? { startup } : {}), ...(unseenStartup ? { unseenStartup } : {}) };
}

/** The value of `-c CMD`, `--command CMD` or `--command=CMD` among `args`; `dynamic` when computed. */
function commandOption(args: readonly ShellWord[]): string | 'dynamic' | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (word.static && word.value === '--') return undefined;
    // getopt: `-c CMD`, a cluster ending in c (`-qc CMD`), or the value attached (`-cCMD`, `-qcCMD`).
    const inline = /^--(?:session-)?command=([\s\S]*)$/.exec(word.value) ?? /^-[a-zA-Z]*c([\s\S]+)$/.exec(word.value);
    const next = /^(-[a-zA-Z]*c|--command|--session-command)$/.test(word.value) ? args[index + 1] : undefined;
    if (inline) return word.static ? (inline[1] as string) : 'dynamic';
    if (next !== undefined) return next.static ? next.value : 'dynamic';
  }
  return undefined;
}

const WATCH_VALUE_FLAGS = /^(-n|--interval|-q|--equexit|-g|--chgexit)$/;

/**
 * The script of a program that hands its argument to `sh -c`: `su -c CMD`, `runuser -c CMD`,
 * `script -c CMD`, `flock FILE -c CMD`, and `watch CMD…` (its words joined, unless `-x`).
 * These always need approval of their own (they run as another user, under a lock, or
 * repeatedly); their script is parsed for deny and ask rules and concerns.
 */
export function launcherScriptOf(argv: readonly ShellWord[]): string | 'dynamic' | undefined {
  const first = argv[0];
  if (first === undefined || !first.static) return undefined;
  const name = basename(first.value);
  const args = argv.slice(1);
  if (name === 'su' || name === 'runuser' || name === 'script' || name === 'flock') return commandOption(args);
  if (name !== 'watch') return undefined;
  let index = 0;
  for (; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (!word.static) return 'dynamic';
    if (word.value === '--') {
      index += 1;
      break;
    }
    if (!word.value.startsWith('-')) break;
    // `watch -x cmd args` runs the command directly: the deny view already sees it as words.
    if (word.value === '-x' || word.value === '--exec' || /^-[a-z]*x/.test(word.value)) return undefined;
    if (WATCH_VALUE_FLAGS.test(word.value)) index += 1;
  }
  const rest = args.slice(index);
  if (rest.length === 0) return undefined;
  if (rest.some((word) => !word.static)) return 'dynamic';
  return rest.map((word) => word.value).join(' ');
}
