import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createOutputCollector, type CollectedOutput } from './output-collector.js';
import { killProcessGroup } from './kill-process-group.js';

/** Options for {@link runShellCommand}. */
export type RunShellCommandOptions = {
  readonly command: string;
  readonly shell: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /**
   * What to spawn instead of `shell` with {@link shellCommandArgv} (a sandbox around it); its
   * extra files are opened read-only as file descriptors 3, 4, ….
   */
  readonly launch?: ShellLaunch;
  /** Spill files for stdout and stderr past the in-memory limit. */
  readonly stdoutFile: string;
  readonly stderrFile: string;
  /** In-memory bytes per stream. */
  readonly maxOutputBytes: number;
  /** Grace between SIGTERM and SIGKILL, in ms. */
  readonly killGraceMs: number;
  /** Called with every chunk of output, in arrival order. */
  readonly onOutput?: (chunk: Buffer) => void;
};

/** A program to start in place of the shell, as a sandbox prepares it. */
export type ShellLaunch = {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly extraFiles: readonly string[];
};

/** Why a run ended before the command finished on its own. */
export type InterruptReason = 'timeout' | 'abort';

/** How a shell command ended. */
export type ShellRunResult = {
  readonly stdout: CollectedOutput;
  readonly stderr: CollectedOutput;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly interrupted: InterruptReason | undefined;
  /** The working folder the command left the shell in (unset when it did not get that far). */
  readonly finalCwd: string | undefined;
};

/** How long output pipes may stay open after the shell exits (a leftover `cmd &` holds them). */
const PIPE_DRAIN_MS = 250;

/** The file descriptor the shell reports its final working folder on (extra files come before it). */
const CWD_FD = 9;
const MAX_EXTRA_FILES = CWD_FD - 3;

/**
 * The script the shell runs: the command through `eval` (with the report descriptor closed, so
 * nothing it starts holds it), so a syntax error in it still lets the working folder be recorded,
 * then `pwd -P` on that descriptor and the command's own status. POSIX sh, for any shell.
 */
const WRAPPER =
  '__toolplane_command=$1; shift\n' +
  `eval "$__toolplane_command" ${CWD_FD}>&-\n` +
  '__toolplane_status=$?\n' +
  `pwd -P >&${CWD_FD} 2>/dev/null\n` +
  'exit $__toolplane_status\n';

/** The program and arguments that run `command` in `shell` the way {@link runShellCommand} does. */
export function shellCommandArgv(shell: string, command: string): string[] {
  return [shell, '-c', WRAPPER, 'toolplane-shell', command];
}

/**
 * Runs one command in a fresh shell that leads its own process group, with no stdin. Output is
 * collected with bounded memory; on timeout or abort the whole group is killed (SIGTERM, then
 * SIGKILL). Rejects only when the shell cannot be started.
 */
export async function runShellCommand(options: RunShellCommandOptions): Promise<ShellRunResult> {
  const stdout = createOutputCollector({ limitBytes: options.maxOutputBytes, spillFile: options.stdoutFile });
  const stderr = createOutputCollector({ limitBytes: options.maxOutputBytes, spillFile: options.stderrFile });
  const [file, ...args] = shellCommandArgv(options.shell, options.command) as [string, ...string[]];
  const launch: ShellLaunch = options.launch ?? { file, args, env: options.env, extraFiles: [] };
  if (launch.extraFiles.length > MAX_EXTRA_FILES)
    throw new Error(`at most ${MAX_EXTRA_FILES} extra files can be passed`);
  const extraFds = launch.extraFiles.map((extra) => openSync(extra, 'r'));
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe', ...extraFds];
  while (stdio.length < CWD_FD) stdio.push('ignore');
  stdio.push('pipe');
  let child;
  try {
    child = spawn(launch.file, [...launch.args], { cwd: options.cwd, env: launch.env, detached: true, stdio });
  } finally {
    for (const fd of extraFds) closeSync(fd);
  }
  const cwdReport = (child.stdio as unknown as readonly Readable[])[CWD_FD] as Readable;
  let reportedCwd = '';
  cwdReport.setEncoding('utf8');
  cwdReport.on('data', (chunk: string) => {
    if (reportedCwd.length < 65_536) reportedCwd += chunk;
  });
  const stdoutStream = child.stdout as Readable;
  const stderrStream = child.stderr as Readable;

  let interrupted: InterruptReason | undefined;
  let killing: Promise<void> | undefined;
  const interrupt = (reason: InterruptReason) => {
    if (interrupted || child.pid === undefined) return;
    interrupted = reason;
    killing = killProcessGroup(child.pid, { graceMs: options.killGraceMs });
  };

  const timer = setTimeout(() => interrupt('timeout'), options.timeoutMs);
  const onAbort = () => interrupt('abort');
  options.signal.addEventListener('abort', onAbort, { once: true });

  stdoutStream.on('data', (chunk: Buffer) => {
    stdout.write(chunk);
    options.onOutput?.(chunk);
  });
  stderrStream.on('data', (chunk: Buffer) => {
    stderr.write(chunk);
    options.onOutput?.(chunk);
  });

  try {
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
      if (options.signal.aborted) onAbort();
    });
    await drainPipes(stdoutStream, stderrStream, cwdReport);
    if (killing) await killing;
    const finalCwd = reportedCwd.replace(/\n$/, '');
    return {
      stdout: stdout.finish(),
      stderr: stderr.finish(),
      exitCode: exit.code,
      signal: exit.signal,
      interrupted,
      finalCwd: finalCwd.length > 0 && !finalCwd.includes('\n') ? finalCwd : undefined,
    };
  } catch (error) {
    stdout.finish();
    stderr.finish();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** Waits for both pipes to close, or destroys them once a leftover background process holds them. */
async function drainPipes(...streams: Readable[]): Promise<void> {
  await Promise.all(
    streams.map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream.closed) return resolve();
          const timer = setTimeout(() => {
            stream.destroy();
            resolve();
          }, PIPE_DRAIN_MS);
          stream.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    ),
  );
}
