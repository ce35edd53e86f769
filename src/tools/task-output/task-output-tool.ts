import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { TASK_REGISTRY, type TaskOutputChunk, type TaskSnapshot } from '../tasks/task-registry.js';
import { describeTaskStatus, unknownTaskMessage } from '../tasks/describe-task.js';
import {
  DEFAULT_TASK_OUTPUT_TIMEOUT_MS,
  MAX_TASK_OUTPUT_TIMEOUT_MS,
  TASK_OUTPUT_PROMPT,
} from './task-output-prompt.js';

/** The TaskOutput tool's input, with the reference system's names. */
export const taskOutputInputSchema = z.strictObject({
  task_id: z.string().describe('The id of the background task, as the Bash call returned it.'),
  block: z.boolean().optional().describe('Wait for the task to finish (default true).'),
  timeout: z
    .number()
    .int()
    .min(0)
    .max(MAX_TASK_OUTPUT_TIMEOUT_MS)
    .optional()
    .describe(`How long to wait, in milliseconds (default ${DEFAULT_TASK_OUTPUT_TIMEOUT_MS}).`),
});

/** A parsed TaskOutput input. */
export type TaskOutputInput = z.infer<typeof taskOutputInputSchema>;

/** What a TaskOutput call produced. */
export type TaskOutputResult =
  | {
      readonly kind: 'read';
      readonly task: TaskSnapshot;
      readonly output: TaskOutputChunk;
      /** Set when the call blocked and the task was still running when the wait ended. */
      readonly waitedMs: number | undefined;
    }
  | { readonly kind: 'failed'; readonly message: string };

/** Options for {@link createTaskOutputTool}. */
export type TaskOutputToolOptions = {
  /** Most bytes of output returned per call; older new output is skipped. Default 30,000. */
  readonly maxOutputBytes?: number;
};

/** Creates the TaskOutput tool, which reads background tasks from the {@link TASK_REGISTRY} service. */
export function createTaskOutputTool(options: TaskOutputToolOptions = {}): Tool<TaskOutputInput, TaskOutputResult> {
  return defineBuiltinTool<TaskOutputInput, TaskOutputResult>('TaskOutput', {
    name: 'TaskOutput',
    services: [TASK_REGISTRY],
    inputSchema: taskOutputInputSchema,
    prompt: TASK_OUTPUT_PROMPT,
    searchHint: 'background task output logs status',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(input, context) {
      const registry = context.services.get(TASK_REGISTRY);
      if (!registry) {
        return { kind: 'failed', message: 'There are no background tasks in this session (no task registry).' };
      }
      const known = registry.get(input.task_id);
      if (!known) return { kind: 'failed', message: unknownTaskMessage(input.task_id, registry.list()) };
      try {
        let waitedMs: number | undefined;
        if ((input.block ?? true) && known.status === 'running') {
          const timeoutMs = input.timeout ?? DEFAULT_TASK_OUTPUT_TIMEOUT_MS;
          const after = await registry.waitForExit(input.task_id, { timeoutMs, signal: context.signal });
          if (after?.status === 'running') waitedMs = timeoutMs;
        }
        const output = await registry.readOutput(input.task_id, {
          from: 'new',
          maxBytes: options.maxOutputBytes,
          signal: context.signal,
        });
        const task = registry.get(input.task_id);
        if (!output || !task) return { kind: 'failed', message: unknownTaskMessage(input.task_id, registry.list()) };
        return { kind: 'read', task, output, waitedMs };
      } catch (error) {
        return {
          kind: 'failed',
          message: `Could not read the output of task ${input.task_id}: ${describeError(error)}.`,
        };
      }
    },
    mapResult: mapTaskOutput,
    describeInput: (input) => input.task_id,
  });
}

/** Maps a TaskOutput result for the model: status line, then the new output. */
export function mapTaskOutput(result: TaskOutputResult): MappedResult {
  if (result.kind === 'failed') return { content: result.message, isError: true };
  const { task, output } = result;
  const lines = [`Task ${task.id} (${task.description}): ${describeTaskStatus(task)}.`];
  if (result.waitedMs !== undefined) {
    lines.push(
      `Still running after waiting ${result.waitedMs} ms; call TaskOutput again to keep waiting or TaskStop to stop it.`,
    );
  }
  if (output.skippedBytes > 0) {
    lines.push(
      `[${output.skippedBytes} earlier bytes of new output skipped; the full output is in ${task.outputFile}]`,
    );
  }
  const text = output.text.replace(/\n+$/, '');
  lines.push(text === '' ? '(no new output)' : `Output:\n${text}`);
  return { content: lines.join('\n') };
}
