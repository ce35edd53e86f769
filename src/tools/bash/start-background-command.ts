import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { TaskExit, TaskProcess } from '../tasks/task-registry.js';
import { killProcessGroup } from './kill-process-group.js';
import type { ShellLaunch } from './run-shell-command.js';

/** Options for {@link startBackgroundCommand}. */
export type StartBackgroundCommandOptions = {
  readonly command: string;
  readonly shell: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** stdout and stderr go straight to this file, never through memory. */
  readonly outputFile: string;
  readonly killGraceMs: number;
  /** What to spawn instead of `shell -c command` (a sandbox around it); extra files become fds 3, 4, …. */
  readonly launch?: ShellLaunch;
  /** Called once the command's process has exited (a sandbox releases what it prepared). */
  readonly onExit?: () => void;
};

/**
 * Starts a command in its own process group with its output written directly to a file, for the
 * task registry to adopt. The child does not keep the host's event loop alive; the registry's
 * `dispose()` kills it. Throws when the shell cannot be started.
 */
export async function startBackgroundCommand(options: StartBackgroundCommandOptions): Promise<TaskProcess> {
  const fd = openSync(options.outputFile, 'w', 0o600);
  const extraFds = (options.launch?.extraFiles ?? []).map((extra) => openSync(extra, 'r'));
  try {
    const child = spawn(
      options.launch?.file ?? options.shell,
      options.launch ? [...options.launch.args] : ['-c', options.command],
      {
        cwd: options.cwd,
        env: options.launch?.env ?? options.env,
        detached: true,
        stdio: ['ignore', fd, fd, ...extraFds],
      },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    const exited = new Promise<TaskExit>((resolve) => {
      child.once('exit', (exitCode, signal) => resolve({ exitCode, signal }));
    });
    let exitedYet = false;
    void exited.then(() => {
      exitedYet = true;
      options.onExit?.();
    });
    child.unref();
    const pid = child.pid;
    return {
      pid,
      exited,
      async stop() {
        if (pid === undefined) return;
        // The shell may be gone while its children live on in the group; kill the group anyway.
        await killProcessGroup(pid, { graceMs: options.killGraceMs });
        if (!exitedYet) await exited;
      },
    };
  } finally {
    closeSync(fd);
    for (const extra of extraFds) closeSync(extra);
  }
}
