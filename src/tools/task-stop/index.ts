export {
  createTaskStopTool,
  mapTaskStop,
  taskStopInputSchema,
  type TaskStopInput,
  type TaskStopResult,
} from './task-stop-tool.js';
export { TASK_STOP_PROMPT } from './task-stop-prompt.js';
