import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How a process the harness started ended, and what it wrote. */
export type ProcessResult = {
  readonly stdout: string;
  readonly stderr: string;
  /** What it wrote on file descriptor 3 (the observe jail's report channel), when asked for. */
  readonly report: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
};

const MAX_OUTPUT = 1 << 20;

/** How long one generated command may run before its process group is killed (not a failure: what it did until then counts). */
export const COMMAND_TIME_LIMIT_MS = 8_000;

function collect(stream: Readable | null | undefined): Promise<string> {
  if (!stream) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size < MAX_OUTPUT) chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * Runs a program in its own process group with no stdin; on timeout the whole group is killed.
 * `extraFds` become the child's descriptors 3, 4, …; `report: true` makes descriptor 3 a pipe
 * read back as `report` instead.
 */
export async function runProcess(options: {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly report?: boolean;
  readonly extraFds?: readonly number[];
}): Promise<ProcessResult> {
  const extra = options.report ? ['pipe' as const] : (options.extraFds ?? []);
  const child = spawn(options.file, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...extra],
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }, options.timeoutMs);
  const outputs = Promise.all([
    collect(child.stdout),
    collect(child.stderr),
    collect(options.report ? (child.stdio[3] as Readable) : undefined),
  ]);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    });
    const [stdout, stderr, report] = await outputs;
    return { stdout, stderr, report, exitCode, timedOut };
  } finally {
    clearTimeout(timer);
    if (child.pid !== undefined) {
      try {
        // Nothing of the command may outlive it (a `cmd &` left behind).
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone.
      }
    }
  }
}
