import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import { SANDBOX } from '../../contract/sandbox.js';
import type { Tool } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { bashInputSchema, type BashInput } from './bash-input.js';
import { sandboxPermission, shellElsewhere } from './bash-permission.js';
import { BASH_PROMPT } from './bash-prompt.js';
import type { BashRuntime } from './bash-runtime.js';
import { mapBashResult, type BashOutput } from './map-bash-result.js';
import { resolveShell } from './resolve-shell.js';
import { runBackground } from './run-background.js';
import { runForeground } from './run-foreground.js';
import { SHELL_STATE, createShellState } from './shell-state.js';
import { createSpillFolder, SPILL_FOLDER } from './spill-folder.js';
import { TASK_REGISTRY } from '../tasks/task-registry.js';

export { bashInputSchema, type BashInput } from './bash-input.js';

/** Characters of a Bash result the model gets whole; past it, a preview and the saved file's path. */
export const BASH_MAX_RESULT_CHARS = 30_000;

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
 * table). Optional services: `SPILL_FOLDER` (else a temporary folder), and `TASK_REGISTRY`,
 * required for `run_in_background`. A result over {@link BASH_MAX_RESULT_CHARS} is answered like
 * any tool's: a preview of about 2 KB and the path of the file holding all of it.
 */
export function createBashTool(options: BashToolOptions): Tool<BashInput, BashOutput> {
  const baseEnv = options.env;
  let shell: Promise<string> | undefined;
  const runtime: BashRuntime = {
    baseEnv,
    maxOutputBytes: options.maxOutputBytes ?? BASH_MAX_RESULT_CHARS,
    killGraceMs: options.killGraceMs ?? 2_000,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
    fallbackState: createShellState(),
    fallbackSpill: createSpillFolder(),
    getShell: () => (shell ??= options.shell ? Promise.resolve(options.shell) : resolveShell(baseEnv)),
  };

  return defineBuiltinTool<BashInput, BashOutput>('Bash', {
    optionalServices: [SANDBOX, SHELL_STATE, SPILL_FOLDER, TASK_REGISTRY],
    name: 'Bash',
    inputSchema: bashInputSchema,
    prompt: BASH_PROMPT,
    searchHint: 'shell command terminal run execute',
    interruptBehavior: 'cancel',
    errorCancelsSiblings: true,
    maxResultSizeChars: BASH_MAX_RESULT_CHARS,
    async checkPermissions(input, context) {
      const sandboxDecision = await sandboxPermission(input, context);
      if (sandboxDecision.behavior === 'deny') return sandboxDecision;
      // Without the SHELL_STATE service the folder an earlier `cd` left is known only here, so the
      // permission engine judged the command in the session folder: a person has to look.
      const remembered =
        context.services.get(SHELL_STATE) === undefined ? runtime.fallbackState.getCwd(context.sessionId) : undefined;
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
        return await (input.run_in_background ? runBackground : runForeground)(runtime, input, context);
      } catch (error) {
        return { kind: 'not-run', message: `The command could not be run: ${describeError(error)}.` };
      }
    },
    mapResult: mapBashResult,
    describeInput: (input) => input.description ?? input.command,
  });
}
