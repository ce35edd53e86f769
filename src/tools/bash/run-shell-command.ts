import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
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
  /** Where the shell writes its final working folder (`pwd -P`). */
  readonly cwdFile: string;
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

/**
 * The script the shell runs: the command through `eval`, so a syntax error in it still lets the
 * working folder be recorded, then `pwd -P` into the marker file and the command's own status.
 */
const WRAPPER =
  '__toolplane_command=$1; __toolplane_cwd_file=$2; shift 2\n' +
  'eval "$__toolplane_command"\n' +
  '__toolplane_status=$?\n' +
  'pwd -P >| "$__toolplane_cwd_file" 2>/dev/null\n' +
  'exit $__toolplane_status\n';

/**
 * Runs one command in a fresh shell that leads its own process group, with no stdin. Output is
 * collected with bounded memory; on timeout or abort the whole group is killed (SIGTERM, then
 * SIGKILL). Rejects only when the shell cannot be started.
 */
export async function runShellCommand(options: RunShellCommandOptions): Promise<ShellRunResult> {
  const stdout = createOutputCollector({ limitBytes: options.maxOutputBytes, spillFile: options.stdoutFile });
  const stderr = createOutputCollector({ limitBytes: options.maxOutputBytes, spillFile: options.stderrFile });
  const child = spawn(options.shell, ['-c', WRAPPER, 'toolplane-shell', options.command, options.cwdFile], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

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

  child.stdout.on('data', (chunk: Buffer) => {
    stdout.write(chunk);
    options.onOutput?.(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.write(chunk);
    options.onOutput?.(chunk);
  });

  try {
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
      if (options.signal.aborted) onAbort();
    });
    await drainPipes(child.stdout, child.stderr);
    if (killing) await killing;
    return {
      stdout: stdout.finish(),
      stderr: stderr.finish(),
      exitCode: exit.code,
      signal: exit.signal,
      interrupted,
      finalCwd: await readCwdMarker(options.cwdFile),
    };
  } catch (error) {
    stdout.finish();
    stderr.finish();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
    await rm(options.cwdFile, { force: true });
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

async function readCwdMarker(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).replace(/\n$/, '');
    return text.length > 0 ? text : undefined;
  } catch {
    return undefined;
  }
}
