import { defineTool } from './define-tool.js';
import type { BuiltinKind, Tool, ToolDefinition } from './tool.js';

/**
 * Builds one of toolplane's own tools: {@link defineTool}, marked as the built-in `kind`. The plane
 * gives built-in knowledge (rule family, read-only judging, plan mode, subagent filter) only to a
 * tool carrying the mark, so a host's tool that merely shares the name is judged as the host's.
 * Not exported from the package: hosts use `defineTool`.
 */
export function defineBuiltinTool<I, O>(kind: BuiltinKind, definition: ToolDefinition<I, O>): Tool<I, O> {
  return { ...defineTool(definition), builtin: kind };
}
