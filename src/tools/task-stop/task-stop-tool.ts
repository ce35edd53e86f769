import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { describeTaskStatus, unknownTaskMessage } from '../tasks/describe-task.js';
import { TASK_REGISTRY, type TaskSnapshot } from '../tasks/task-registry.js';
import { TASK_STOP_PROMPT } from './task-stop-prompt.js';

/** The TaskStop tool's input, with the reference system's names. */
export const taskStopInputSchema = z.strictObject({
  task_id: z.string().describe('The id of the background task to stop.'),
});

/** A parsed TaskStop input. */
export type TaskStopInput = z.infer<typeof taskStopInputSchema>;

/** What a TaskStop call produced. */
export type TaskStopResult =
  | { readonly kind: 'stopped'; readonly task: TaskSnapshot }
  | { readonly kind: 'already-finished'; readonly task: TaskSnapshot }
  | { readonly kind: 'failed'; readonly message: string };

/** Creates the TaskStop tool, which kills background tasks of the {@link TASK_REGISTRY} service. */
export function createTaskStopTool(): Tool<TaskStopInput, TaskStopResult> {
  return defineBuiltinTool<TaskStopInput, TaskStopResult>('TaskStop', {
    name: 'TaskStop',
    services: [TASK_REGISTRY],
    inputSchema: taskStopInputSchema,
    prompt: TASK_STOP_PROMPT,
    searchHint: 'kill stop background task process',
    async call(input, context) {
      const registry = context.services.get(TASK_REGISTRY);
      if (!registry) {
        return { kind: 'failed', message: 'There are no background tasks in this session (no task registry).' };
      }
      const known = registry.get(input.task_id);
      if (!known) return { kind: 'failed', message: unknownTaskMessage(input.task_id, registry.list()) };
      if (known.status !== 'running') return { kind: 'already-finished', task: known };
      try {
        const task = await registry.stop(input.task_id);
        return task
          ? { kind: 'stopped', task }
          : { kind: 'failed', message: unknownTaskMessage(input.task_id, registry.list()) };
      } catch (error) {
        return { kind: 'failed', message: `Could not stop task ${input.task_id}: ${describeError(error)}.` };
      }
    },
    mapResult: mapTaskStop,
    describeInput: (input) => input.task_id,
  });
}

/** Maps a TaskStop result for the model. */
export function mapTaskStop(result: TaskStopResult): MappedResult {
  switch (result.kind) {
    case 'failed':
      return { content: result.message, isError: true };
    case 'already-finished':
      return {
        content: `Task ${result.task.id} (${result.task.description}) had already finished: ${describeTaskStatus(result.task)}. Nothing was stopped.`,
      };
    case 'stopped':
      return {
        content: `Stopped task ${result.task.id} (${result.task.description}) and every process it started. Its output remains in ${result.task.outputFile}.`,
      };
  }
}
