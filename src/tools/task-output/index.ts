export {
  createTaskOutputTool,
  mapTaskOutput,
  taskOutputInputSchema,
  type TaskOutputInput,
  type TaskOutputResult,
  type TaskOutputToolOptions,
} from './task-output-tool.js';
export {
  TASK_OUTPUT_PROMPT,
  DEFAULT_TASK_OUTPUT_TIMEOUT_MS,
  MAX_TASK_OUTPUT_TIMEOUT_MS,
} from './task-output-prompt.js';
