import { describeError } from '../errors/toolplane-error.js';

/** One readable line for an error from the SDK, without its `MCP error -32603: ` prefix. */
export function describeMcpError(error: unknown): string {
  return describeError(error).replace(/^MCP error -?\d+: /, '');
}
