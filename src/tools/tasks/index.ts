export {
  TASK_REGISTRY,
  createTaskRegistry,
  type TaskRegistry,
  type TaskSnapshot,
  type TaskStatus,
  type TaskExit,
  type TaskProcess,
  type TaskOutputChunk,
  type TaskListener,
  type RegisterTaskOptions,
  type ReadTaskOutputOptions,
  type WaitForTaskOptions,
} from './task-registry.js';
export { describeTaskStatus, unknownTaskMessage } from './describe-task.js';
