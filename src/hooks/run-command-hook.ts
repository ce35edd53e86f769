import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { basename } from 'node:path';

/** Options for {@link runCommandHook}. */
export type RunCommandHookOptions = {
  /** Run by the shell exactly as written. */
  readonly command: string;
  /** Written to the command's stdin, then stdin is closed. */
  readonly stdin: string;
  /** The complete environment of the command (already scrubbed by the caller). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Milliseconds before the command's whole process group is killed. */
  readonly timeoutMs: number;
  /**
   * The shell binary; default `/bin/bash` when present, else `/bin/sh`. Bash runs with `--norc`:
   * over Node's socket pipes it would otherwise take itself for a remote shell and source ~/.bashrc.
   */
  readonly shell?: string;
  readonly signal: AbortSignal;
};

/** How a command hook ended. */
export type CommandHookRun =
  | {
      readonly kind: 'exited';
      /** `null` when a signal ended it. */
      readonly exitCode: number | null;
      readonly exitSignal: NodeJS.Signals | null;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: 'timeout'; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'spawn-error'; readonly message: string };

/** Bytes of stdout or stderr kept per hook; the rest is dropped (a hook is not a data pipe). */
const OUTPUT_LIMIT_BYTES = 1024 * 1024;
/** After the hook exits, how long its pipes may stay open (held by a background child). */
const PIPE_GRACE_MS = 200;

let defaultShell: string | undefined;

function pickShell(): string {
  if (defaultShell !== undefined) return defaultShell;
  try {
    accessSync('/bin/bash', constants.X_OK);
    defaultShell = '/bin/bash';
  } catch {
    defaultShell = '/bin/sh';
  }
  return defaultShell;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function collector(): { push(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      if (size >= OUTPUT_LIMIT_BYTES) return;
      const kept = chunk.subarray(0, OUTPUT_LIMIT_BYTES - size);
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/**
 * Runs one hook command in its own process group: `shell -c command`, the call as JSON on stdin,
 * stdout and stderr collected. Past `timeoutMs`, or when `signal` aborts, the whole group is
 * killed (SIGKILL), so children the hook started die with it. Never rejects.
 */
export function runCommandHook(options: RunCommandHookOptions): Promise<CommandHookRun> {
  if (options.signal.aborted) return Promise.resolve({ kind: 'cancelled' });
  return new Promise((resolvePromise) => {
    let child: ChildProcess;
    const shell = options.shell ?? pickShell();
    try {
      child =
        process.platform === 'win32'
          ? spawn(options.command, { shell: true, cwd: options.cwd, env: options.env, windowsHide: true })
          : spawn(shell, [...(basename(shell) === 'bash' ? ['--norc'] : []), '-c', options.command], {
              cwd: options.cwd,
              env: options.env,
              detached: true,
              stdio: ['pipe', 'pipe', 'pipe'],
            });
    } catch (error) {
      resolvePromise({ kind: 'spawn-error', message: (error as Error).message });
      return;
    }
    const stdout = collector();
    const stderr = collector();
    let settled = false;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const finish = (run: CommandHookRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolvePromise(run);
    };
    const finishExited = (): void => {
      if (exit === undefined) return;
      if (timedOut) finish({ kind: 'timeout', stdout: stdout.text(), stderr: stderr.text() });
      else
        finish({
          kind: 'exited',
          exitCode: exit.code,
          exitSignal: exit.signal,
          stdout: stdout.text(),
          stderr: stderr.text(),
        });
    };
    const onAbort = (): void => {
      killGroup(child);
      finish({ kind: 'cancelled' });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
      // The exit event follows the kill; fall back in case the pipes never close.
      graceTimer = setTimeout(
        () => finish({ kind: 'timeout', stdout: stdout.text(), stderr: stderr.text() }),
        PIPE_GRACE_MS,
      );
    }, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      finish({ kind: 'spawn-error', message: error.message });
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // A background child may hold the pipes open; do not wait for it past a short grace.
      clearTimeout(graceTimer);
      graceTimer = setTimeout(finishExited, PIPE_GRACE_MS);
    });
    child.on('close', () => {
      finishExited();
    });
    // A hook that never reads stdin closes the pipe early; that is not an error of the hook.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin);
  });
}
