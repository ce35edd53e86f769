import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** What {@link runRipgrep} does with each output line: keep reading, or stop ripgrep now. */
export type LineVerdict = 'continue' | 'stop';

/** Options for {@link runRipgrep}. */
export type RunRipgrepOptions = {
  /** Arguments after the binary; passed as an array, never through a shell. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Called for every line of standard output, without its line break. */
  readonly onLine: (line: string) => LineVerdict;
};

/** How a ripgrep run ended. Exit code 0: matches; 1: none; 2: an error (possibly with partial output). */
export type RipgrepRun =
  | { readonly ok: true; readonly exitCode: number | null; readonly stderr: string; readonly stopped: boolean }
  | { readonly ok: false; readonly message: string };

const MAX_STDERR_CHARS = 4_000;

let ripgrepPath: Promise<string | Error> | undefined;

/** The path of the ripgrep binary shipped by `@vscode/ripgrep`, or the error that prevents it. */
export function resolveRipgrep(): Promise<string | Error> {
  ripgrepPath ??= import('@vscode/ripgrep').then(
    (module) => module.rgPath,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  return ripgrepPath;
}

/**
 * Runs ripgrep and streams its standard output line by line to `onLine`, which can stop it
 * early (the process is killed and the rest ignored). Aborting `signal` kills it too. Standard
 * error is kept (first 4,000 characters) for error messages. Never throws.
 */
export async function runRipgrep(options: RunRipgrepOptions): Promise<RipgrepRun> {
  const binary = await resolveRipgrep();
  if (binary instanceof Error) {
    return {
      ok: false,
      message: `ripgrep is not available (${binary.message}). Reinstall the package so @vscode/ripgrep's platform binary is present, or use Bash.`,
    };
  }
  if (options.signal.aborted) return { ok: false, message: 'The search was aborted.' };
  return new Promise<RipgrepRun>((resolve) => {
    const child = spawn(binary, options.args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let stderr = '';
    let stopped = false;
    let failure: Error | undefined;
    const stop = () => {
      if (!stopped) {
        stopped = true;
        child.kill('SIGKILL');
      }
    };
    const onAbort = () => stop();
    options.signal.addEventListener('abort', onAbort, { once: true });
    const feed = (text: string) => {
      if (stopped) return;
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (options.onLine(line) === 'stop') {
          stop();
          return;
        }
      }
    };
    child.stdout.on('data', (chunk: Buffer) => feed(decoder.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      failure = error;
    });
    child.on('close', (exitCode) => {
      options.signal.removeEventListener('abort', onAbort);
      if (failure !== undefined) {
        resolve({ ok: false, message: `ripgrep could not be started: ${failure.message}` });
        return;
      }
      if (options.signal.aborted) {
        resolve({ ok: false, message: 'The search was aborted.' });
        return;
      }
      feed(decoder.end());
      if (!stopped && pending.length > 0) options.onLine(pending);
      resolve({ ok: true, exitCode, stderr: stderr.slice(0, MAX_STDERR_CHARS), stopped });
    });
  });
}

/**
 * Arguments every search passes: no user config, `.gitignore` honoured even outside a git
 * repository, hidden files included, version-control folders skipped.
 */
export const RIPGREP_BASE_ARGS: readonly string[] = [
  '--no-config',
  '--no-require-git',
  '--hidden',
  '--glob',
  '!.git',
  '--glob',
  '!.svn',
  '--glob',
  '!.hg',
  '--glob',
  '!.jj',
];
