export { createToolExecutor } from './tool-executor.js';
export { runToolUses } from './run-tool-uses.js';
export { createDefaultPermissionGate } from './default-permission-gate.js';
export { outcomeText, toolUseError } from './outcome-text.js';
export type {
  ToolCallOutcome,
  ToolCallRecord,
  ToolCallStatus,
  ToolExecutor,
  ToolExecutorOptions,
  ToolRunEvent,
  ToolRunResult,
} from './types.js';
