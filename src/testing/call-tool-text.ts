import type { AnyTool } from '../contract/tool.js';
import { createCallContext } from './call-context.js';

/** Calls a tool directly (outside the plane) and returns its mapped result as text, with its error flag. */
export async function callToolText(
  tool: AnyTool | undefined,
  input: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  if (tool === undefined) throw new Error('tool missing');
  const context = createCallContext({ toolUseId: 'toolu_1', cwd: '/' });
  const mapped = tool.mapResult(await tool.call(input, context), 'toolu_1');
  return {
    text: typeof mapped.content === 'string' ? mapped.content : JSON.stringify(mapped.content),
    isError: mapped.isError === true,
  };
}
