import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { scrubModelCredentials } from '../../contract/scrub-env.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { TASK_REGISTRY } from '../tasks/task-registry.js';
import type { BashInput } from './bash-input.js';
import { planFor } from './bash-permission.js';
import { isFolder, spillFolderOf, startingCwd, type BashRuntime } from './bash-runtime.js';
import type { BashOutput } from './map-bash-result.js';
import { startBackgroundCommand } from './start-background-command.js';

/** Starts a command as a background task and answers at once with its task id and output file. */
export async function runBackground(
  runtime: BashRuntime,
  input: BashInput,
  context: ToolCallContext,
): Promise<BashOutput> {
  const registry = context.services.get(TASK_REGISTRY);
  if (!registry) {
    return {
      kind: 'not-run',
      message:
        'Background commands are not available in this session (no task registry). Run the command without run_in_background, with a timeout.',
    };
  }
  const { cwd } = await startingCwd(runtime, context);
  if (!(await isFolder(cwd))) {
    return { kind: 'not-run', message: `The working folder ${cwd} does not exist, so the command did not start.` };
  }
  const outputFile = path.join(await spillFolderOf(runtime, context), `background-${randomUUID()}.log`);
  const shellPath = await runtime.getShell();
  const env = scrubModelCredentials(runtime.baseEnv);
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
      killGraceMs: runtime.killGraceMs,
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
}
