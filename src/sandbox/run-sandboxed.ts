import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Sandbox, SandboxProfile } from '../contract/sandbox.js';

/** What a command run by {@link runSandboxed} printed and how it ended. */
export type SandboxedRun = { readonly stdout: string; readonly stderr: string; readonly code: number | null };

/**
 * Runs one short command in the sandbox and collects its output (for `toolplane doctor`, tests and
 * benchmarks; Bash has its own runner with limits, timeouts and process-group kills).
 */
export async function runSandboxed(
  sandbox: Sandbox,
  options: {
    readonly profile: SandboxProfile;
    readonly argv: readonly string[];
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
  },
): Promise<SandboxedRun> {
  const launch = await sandbox.prepare({
    profile: options.profile,
    argv: options.argv,
    cwd: options.cwd,
    env: options.env,
  });
  const fds = launch.extraFiles.map((file) => openSync(file, 'r'));
  try {
    return await new Promise<SandboxedRun>((resolve) => {
      const child = spawn(launch.file, [...launch.args], {
        env: launch.env,
        stdio: ['ignore', 'pipe', 'pipe', ...fds],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', (error) =>
        resolve({ stdout, stderr: `${stderr}could not start: ${error.message}`, code: null }),
      );
      child.once('close', (code) => resolve({ stdout, stderr, code }));
    });
  } finally {
    for (const fd of fds) closeSync(fd);
    await launch.release();
  }
}

/** `bwrap --version`, or undefined when it does not answer. */
export function bubblewrapVersion(bwrap: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(bwrap, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', () => resolve(undefined));
    child.once('close', () => resolve(text.trim() || undefined));
  });
}
