import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { scrubModelCredentials } from '../../contract/scrub-env.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import type { BashInput } from './bash-input.js';
import { planFor } from './bash-permission.js';
import { DEFAULT_BASH_TIMEOUT_MS } from './bash-prompt.js';
import { isFolder, shellStateOf, spillFolderOf, startingCwd, type BashRuntime } from './bash-runtime.js';
import { explainSandboxBlock } from './explain-sandbox-block.js';
import type { BashOutput } from './map-bash-result.js';
import { createProgressReporter } from './progress-reporter.js';
import { runShellCommand, shellCommandArgv } from './run-shell-command.js';
import { saveFullOutput } from './save-full-output.js';

/**
 * Runs a command and waits for it (up to its time limit), in the sandbox its approval calls for.
 * Output past the in-memory limit is kept whole in one file of the spill folder.
 */
export async function runForeground(
  runtime: BashRuntime,
  input: BashInput,
  context: ToolCallContext,
): Promise<BashOutput> {
  const { cwd, note } = await startingCwd(runtime, context);
  if (!(await isFolder(cwd))) {
    return { kind: 'not-run', message: `The working folder ${cwd} does not exist, so the command did not run.` };
  }
  const base = path.join(await spillFolderOf(runtime, context), `bash-${randomUUID()}`);
  const timeoutMs = input.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
  const progress = createProgressReporter({ report: context.reportProgress, intervalMs: runtime.progressIntervalMs });
  const shellPath = await runtime.getShell();
  const env = scrubModelCredentials(runtime.baseEnv);
  const plan = await planFor(input, context, { argv: shellCommandArgv(shellPath, input.command), cwd, env });
  if (plan.kind === 'refused') {
    progress.stop();
    return { kind: 'not-run', message: plan.message };
  }
  const launch = plan.kind === 'sandboxed' ? plan.launch : undefined;
  try {
    const result = await runShellCommand({
      command: input.command,
      shell: shellPath,
      cwd,
      env,
      ...(launch ? { launch } : {}),
      timeoutMs,
      signal: context.signal,
      stdoutFile: `${base}.stdout.log`,
      stderrFile: `${base}.stderr.log`,
      maxOutputBytes: runtime.maxOutputBytes,
      killGraceMs: runtime.killGraceMs,
      onOutput: progress.add,
    });
    if (result.finalCwd !== undefined) shellStateOf(runtime, context).setCwd(context.sessionId, result.finalCwd);
    const failed = result.exitCode !== 0 && result.interrupted === undefined;
    const sandboxBlock = launch
      ? explainSandboxBlock({
          profile: launch.profile,
          network: launch.network,
          summary: launch.summary,
          output: `${result.stdout.text}\n${result.stderr.text}`,
          failed,
        })
      : undefined;
    const notes = [note, 'note' in plan ? plan.note : undefined].filter((text): text is string => text !== undefined);
    const fullOutput = await saveFullOutput({
      stdout: result.stdout,
      stderr: result.stderr,
      combinedFile: `${base}.output.log`,
    });
    return {
      kind: 'ran',
      stdout: result.stdout.text,
      stderr: result.stderr.text,
      exitCode: result.exitCode,
      signal: result.signal,
      interrupted: result.interrupted,
      timeoutMs,
      stdoutFile: result.stdout.spilledTo,
      stderrFile: result.stderr.spilledTo,
      cwd: result.finalCwd ?? cwd,
      cwdChanged: result.finalCwd !== undefined && result.finalCwd !== cwd,
      note: notes.length > 0 ? notes.join('\n') : undefined,
      ...(fullOutput ? { fullOutput } : {}),
      ...(sandboxBlock ? { sandboxBlock } : {}),
    };
  } catch (error) {
    return { kind: 'not-run', message: `The shell could not be started: ${describeError(error)}.` };
  } finally {
    progress.stop();
    await launch?.release();
  }
}
