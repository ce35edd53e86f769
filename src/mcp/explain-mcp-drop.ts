import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors/toolplane-error.js';
import type { McpTransportHandle } from './create-mcp-transport.js';
import { describeMcpError } from './describe-mcp-error.js';

/** Why a connection attempt or a live connection ended, in words for people and the model. */
export function explainMcpDrop(error: unknown, handle: McpTransportHandle | undefined, timeoutMs: number): string {
  let text: string;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    text = `did not finish connecting within ${timeoutMs} ms`;
  } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    text = 'the server closed the connection';
  } else if ((error instanceof StreamableHTTPError || error instanceof SseError) && error.code !== undefined) {
    text = `HTTP ${error.code}: ${describeError(error)}`;
  } else {
    text = describeMcpError(error);
  }
  const stderr = handle?.stderrTail() ?? '';
  return stderr.length > 0 ? `${text} (stderr: ${stderr.split('\n').slice(-3).join(' | ')})` : text;
}
