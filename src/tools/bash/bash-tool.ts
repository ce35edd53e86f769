import { randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { PermissionDecision } from '../../contract/permission.js';
import { SANDBOX } from '../../contract/sandbox.js';
import { scrubModelCredentials } from '../../contract/scrub-env.js';
import type { Tool, ToolCallContext, ToolCheckContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { TASK_REGISTRY } from '../tasks/task-registry.js';
import { BASH_PROMPT, DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS } from './bash-prompt.js';
import { mapBashResult, type BashOutput } from './map-bash-result.js';
import { createProgressReporter } from './progress-reporter.js';
import { resolveShell } from './resolve-shell.js';
import { explainSandboxBlock } from './explain-sandbox-block.js';
import { planSandbox } from './plan-sandbox.js';
import { runShellCommand, shellCommandArgv } from './run-shell-command.js';
import { SHELL_STATE, createShellState } from './shell-state.js';
import { SPILL_FOLDER, createSpillFolder } from './spill-folder.js';
import { startBackgroundCommand } from './start-background-command.js';

/** The Bash tool's input, with the reference system's names. */
export const bashInputSchema = z.strictObject({
  command: z.string().describe('The command to run.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(`Time limit in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`),
  description: z.string().optional().describe('What the command does, in 5-10 words, for the person watching.'),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run without waiting; returns a task id to use with TaskOutput and TaskStop.'),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      'Ask the user to let this one command run outside the sandbox, with their full access. Only when the sandbox blocked something the task truly needs.',
    ),
});

/** A parsed Bash input. */
export type BashInput = z.infer<typeof bashInputSchema>;

/** Options for {@link createBashTool}. */
export type BashToolOptions = {
  /** The shell to run; by default bash, else `$SHELL`, else /bin/sh. */
  readonly shell?: string;
  /** The host's environment, which commands start from (credentials are removed). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Output bytes per stream kept in memory before the rest goes to a spill file. Default 30,000. */
  readonly maxOutputBytes?: number;
  /** Grace between SIGTERM and SIGKILL when a command is killed, in ms. Default 2,000. */
  readonly killGraceMs?: number;
  /** Minimum interval between progress reports, in ms. Default 1,000. */
  readonly progressIntervalMs?: number;
};

/**
 * Creates the Bash tool: runs a command in a fresh shell that leads its own process group,
 * keeping the working folder per session (the {@link SHELL_STATE} service, else the tool's own
 * table). Optional services: {@link SPILL_FOLDER} (else a temporary folder), and
 * {@link TASK_REGISTRY}, required for `run_in_background`.
 */
export function createBashTool(options: BashToolOptions): Tool<BashInput, BashOutput> {
  const baseEnv = options.env;
  const maxOutputBytes = options.maxOutputBytes ?? 30_000;
  const killGraceMs = options.killGraceMs ?? 2_000;
  const fallbackState = createShellState();
  const fallbackSpill = createSpillFolder();
  let shell: Promise<string> | undefined;
  const getShell = () => (shell ??= options.shell ? Promise.resolve(options.shell) : resolveShell(baseEnv));

  const startingCwd = async (context: ToolCallContext) => {
    const state = context.services.get(SHELL_STATE) ?? fallbackState;
    const remembered = state.getCwd(context.sessionId);
    if (remembered !== undefined && (await isFolder(remembered))) return { cwd: remembered, note: undefined };
    const note =
      remembered === undefined
        ? undefined
        : `The previous working folder ${remembered} no longer exists; this command ran in ${context.cwd}.`;
    return { cwd: context.cwd, note };
  };

  const runForeground = async (input: BashInput, context: ToolCallContext): Promise<BashOutput> => {
    const { cwd, note } = await startingCwd(context);
    if (!(await isFolder(cwd))) {
      return { kind: 'not-run', message: `The working folder ${cwd} does not exist, so the command did not run.` };
    }
    const spill = await (context.services.get(SPILL_FOLDER) ?? fallbackSpill).directory(context.signal);
    const base = path.join(spill, `bash-${randomUUID()}`);
    const timeoutMs = input.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
    const progress = createProgressReporter({
      report: context.reportProgress,
      intervalMs: options.progressIntervalMs ?? 1_000,
    });
    const shellPath = await getShell();
    const env = scrubModelCredentials(baseEnv);
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
        maxOutputBytes,
        killGraceMs,
        onOutput: progress.add,
      });
      if (result.finalCwd !== undefined) {
        (context.services.get(SHELL_STATE) ?? fallbackState).setCwd(context.sessionId, result.finalCwd);
      }
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
        ...(sandboxBlock ? { sandboxBlock } : {}),
      };
    } catch (error) {
      return { kind: 'not-run', message: `The shell could not be started: ${describeError(error)}.` };
    } finally {
      progress.stop();
      await launch?.release();
    }
  };

  const runBackground = async (input: BashInput, context: ToolCallContext): Promise<BashOutput> => {
    const registry = context.services.get(TASK_REGISTRY);
    if (!registry) {
      return {
        kind: 'not-run',
        message:
          'Background commands are not available in this session (no task registry). Run the command without run_in_background, with a timeout.',
      };
    }
    const { cwd } = await startingCwd(context);
    if (!(await isFolder(cwd))) {
      return { kind: 'not-run', message: `The working folder ${cwd} does not exist, so the command did not start.` };
    }
    const spill = await (context.services.get(SPILL_FOLDER) ?? fallbackSpill).directory(context.signal);
    const outputFile = path.join(spill, `background-${randomUUID()}.log`);
    const shellPath = await getShell();
    const env = scrubModelCredentials(baseEnv);
    const plan = await planFor(input, context, { argv: [shellPath, '-c', input.command], cwd, env });
    if (plan.kind === 'refused') return { kind: 'not-run', message: plan.message };
    const launch = plan.kind === 'sandboxed' ? plan.launch : undefined;
    try {
      const started = await startBackgroundCommand({
        command: input.command,
        shell: shellPath,
        cwd,
        env,
        outputFile,
        killGraceMs,
        ...(launch ? { launch, onExit: () => void launch.release() } : {}),
      });
      const task = registry.register({
        description: input.description ?? input.command,
        command: input.command,
        outputFile,
        process: started,
      });
      return { kind: 'background', taskId: task.id, outputFile };
    } catch (error) {
      await launch?.release();
      return { kind: 'not-run', message: `The background command could not be started: ${describeError(error)}.` };
    }
  };

  return defineBuiltinTool<BashInput, BashOutput>('Bash', {
    name: 'Bash',
    optionalServices: [SANDBOX, SHELL_STATE, SPILL_FOLDER, TASK_REGISTRY],
    inputSchema: bashInputSchema,
    prompt: BASH_PROMPT,
    searchHint: 'shell command terminal run execute',
    interruptBehavior: 'cancel',
    errorCancelsSiblings: true,
    async checkPermissions(input, context) {
      const sandboxDecision = await sandboxPermission(input, context);
      if (sandboxDecision.behavior === 'deny') return sandboxDecision;
      // Without the SHELL_STATE service the folder an earlier `cd` left is known only here, so the
      // permission engine judged the command in the session folder: a person has to look.
      const remembered =
        context.services.get(SHELL_STATE) === undefined ? fallbackState.getCwd(context.sessionId) : undefined;
      if (remembered === undefined || remembered === context.cwd) return sandboxDecision;
      return shellElsewhere(remembered, context.cwd);
    },
    validateInput(input) {
      if (input.command.trim() === '') {
        return { ok: false, message: 'The command is empty. Send the shell command to run in `command`.' };
      }
      return { ok: true };
    },
    async call(input, context) {
      if (context.signal.aborted) {
        return { kind: 'not-run', message: 'The call was aborted before the command started; nothing ran.' };
      }
      try {
        return await (input.run_in_background ? runBackground(input, context) : runForeground(input, context));
      } catch (error) {
        return { kind: 'not-run', message: `The command could not be run: ${describeError(error)}.` };
      }
    },
    mapResult: mapBashResult,
    describeInput: (input) => input.description ?? input.command,
  });
}

/** An ask when the shell's folder is not the call's folder (`pwd -P` may spell it through its real path). */
async function shellElsewhere(shellCwd: string, callCwd: string): Promise<PermissionDecision> {
  const real = async (folder: string) => realpath(folder).catch(() => folder);
  if ((await real(shellCwd)) === (await real(callCwd))) return { behavior: 'passthrough' };
  const message = `The shell is in ${shellCwd} since an earlier call, and no SHELL_STATE service lets the permission check see that; approve only if the command is safe to run there.`;
  return { behavior: 'ask', message, reason: { kind: 'safety', message } };
}

async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Bash's own say on a call: running outside the sandbox (asked for, an excluded command, or no
 * sandbox here with failIfUnavailable) is a safety ask, which no rule, mode or hook answers — only
 * a person, for this one run; forbidden by the settings, it is denied. Otherwise the rules decide.
 */
async function sandboxPermission(input: BashInput, context: ToolCheckContext): Promise<PermissionDecision> {
  const sandbox = context.services.get(SANDBOX);
  if (sandbox === undefined) return { behavior: 'passthrough' };
  let outside;
  try {
    outside = await sandbox.outside({ command: input.command, requested: input.dangerouslyDisableSandbox === true });
  } catch (error) {
    const message = `The sandbox could not be checked (${describeError(error)}).`;
    return { behavior: 'ask', message, reason: { kind: 'safety', message } };
  }
  if (outside === undefined) return { behavior: 'passthrough' };
  if (outside.verdict === 'refuse') {
    return {
      behavior: 'deny',
      message: `This command cannot run outside the sandbox: ${outside.reason}.`,
      reason: { kind: 'tool', message: outside.reason },
    };
  }
  const message =
    `Run this command OUTSIDE the sandbox, with your full access to files, network and credentials? ${outside.reason}. ` +
    'Approve only if you trust this exact command.';
  return {
    behavior: 'ask',
    message,
    reason: { kind: 'safety', message: `runs outside the sandbox: ${outside.reason}` },
  };
}

/** Where one command runs (see planSandbox), from the call's input and how it was approved. */
function planFor(
  input: BashInput,
  context: ToolCallContext,
  launch: { readonly argv: readonly string[]; readonly cwd: string; readonly env: Readonly<Record<string, string>> },
): ReturnType<typeof planSandbox> {
  return planSandbox({
    sandbox: context.services.get(SANDBOX),
    command: input.command,
    requestedOutside: input.dangerouslyDisableSandbox === true,
    approval: context.approval,
    ...launch,
    signal: context.signal,
  });
}
