import type { ToolUseBlock } from '../messages/types.js';
import { createToolExecutor } from './tool-executor.js';
import type { ToolExecutorOptions, ToolRunResult } from './types.js';

/**
 * Runs all `tool_use` blocks of one assistant message through the plane and resolves with the
 * user message of their results (one per id, in order). The same executor the agent loop uses.
 */
export function runToolUses(blocks: readonly ToolUseBlock[], options: ToolExecutorOptions): Promise<ToolRunResult> {
  const executor = createToolExecutor(options);
  for (const block of blocks) executor.add(block);
  executor.close();
  return executor.finished;
}
