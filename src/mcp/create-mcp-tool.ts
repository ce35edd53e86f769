import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defineTool } from '../contract/define-tool.js';
import { jsonSchema } from '../contract/tool.js';
import type { Tool, ToolCallContext } from '../contract/tool.js';
import { describeError } from '../errors/toolplane-error.js';
import { describeMcpError, isSchemaError } from './describe-mcp-error.js';
import { mapMcpOutput, mcpErrorResult } from './map-mcp-result.js';

/** Longest server description passed to the model, in characters. */
export const DEFAULT_MCP_DESCRIPTION_CHARS = 2_048;

/** A server's client at call time, or why there is none. */
export type McpClientLookup =
  | {
      readonly status: 'connected';
      readonly client: Client;
      /** Reports that the client could not reach its server, so the connection is rebuilt. */
      readonly reportBroken: (reason: string) => void;
      /** Why this side dropped the client (an answer over the size limit), read when a call ends closed. */
      readonly dropReason?: () => string | undefined;
    }
  | { readonly status: 'unavailable'; readonly reason: string };

/** Options for {@link createMcpTool}. */
export type CreateMcpToolOptions = {
  /** The server's name in the config. */
  readonly server: string;
  /** The tool as the server listed it (untrusted: only its fields are read, never trusted). */
  readonly definition: McpToolDefinition;
  /** The model-facing name (see `assignMcpToolNames`). */
  readonly name: string;
  /** Looks the server's client up at call time, so calls survive reconnects. */
  readonly lookupClient: () => McpClientLookup;
  /** Time limit of one call, in ms; progress notifications restart it. */
  readonly callTimeoutMs: number;
  /** Announce by name only and load through ToolSearch. */
  readonly shouldDefer: boolean;
  /** Never deferred. */
  readonly alwaysLoad: boolean;
  readonly maxDescriptionChars?: number;
};

function capText(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Makes an MCP tool an ordinary tool: `origin: 'external'`, `external: {server, tool}`, the
 * server's JSON Schema as its input schema (validated by the schema stage), the server's
 * description capped at {@link DEFAULT_MCP_DESCRIPTION_CHARS}. Annotations come from an untrusted
 * server, so they only shape scheduling and display: `readOnlyHint: true` makes the tool read-only
 * and concurrency-safe, `destructiveHint: true` makes it destructive; permissions stay
 * passthrough, so rules and the mode decide as for any tool. A call goes out with the call's
 * signal (an abort sends `notifications/cancelled`), reports progress notifications, and ends
 * after `callTimeoutMs` without progress. Every failure (server not connected, timeout, protocol
 * error) is an `isError` result written for the model; only an abort rethrows, for the plane.
 */
export function createMcpTool(options: CreateMcpToolOptions): Tool<Record<string, unknown>, CallToolResult> {
  const { server, definition } = options;
  const annotations = definition.annotations;
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = annotations?.destructiveHint === true;
  const title = definition.title ?? annotations?.title;
  const given = definition.description?.trim() ?? '';
  const description = capText(
    given.length > 0 ? given : (title ?? `Tool ${definition.name} from MCP server ${server}.`),
    options.maxDescriptionChars ?? DEFAULT_MCP_DESCRIPTION_CHARS,
  );
  const where = `tool "${definition.name}" on MCP server "${server}"`;

  const call = async (input: Record<string, unknown>, context: ToolCallContext): Promise<CallToolResult> => {
    const lookup = options.lookupClient();
    if (lookup.status === 'unavailable') {
      return mcpErrorResult(
        `MCP server "${server}" is not connected: ${lookup.reason}. Try again later or use another tool.`,
      );
    }
    if (!isRecord(input)) return mcpErrorResult(`The input of ${where} must be a JSON object.`);
    try {
      const result = await lookup.client.callTool({ name: definition.name, arguments: input }, CallToolResultSchema, {
        signal: context.signal,
        timeout: options.callTimeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (progress) => {
          context.reportProgress({
            kind: 'mcp-progress',
            ...(progress.message === undefined ? {} : { message: progress.message }),
            data: { progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }) },
          });
        },
      });
      if ('content' in result && Array.isArray(result.content)) return result as CallToolResult;
      // Servers on the 2024-10-07 protocol answer with a bare `toolResult`.
      const legacy = 'toolResult' in result ? result.toolResult : undefined;
      return {
        content: [{ type: 'text', text: typeof legacy === 'string' ? legacy : (JSON.stringify(legacy) ?? '') }],
      };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return mcpErrorResult(
          `The ${where} did not answer within ${options.callTimeoutMs} ms and was cancelled. Retry with a smaller request, or use another tool.`,
        );
      }
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        const dropped = lookup.dropReason?.();
        if (dropped !== undefined)
          return mcpErrorResult(
            `The result of ${where} was too large: ${dropped}, so it was dropped (the server is being reconnected). Ask for less at a time (a narrower query, a smaller page or range), or use another tool.`,
          );
        return mcpErrorResult(
          `MCP server "${server}" closed the connection during the call of ${definition.name}; it is being reconnected. Check whether the call had an effect before retrying.`,
        );
      }
      if (isSchemaError(error)) {
        // The server answered, with something that is not a tool result: its fault, not the link's.
        return mcpErrorResult(
          `MCP server "${server}" answered the call of ${definition.name} with a result that is not a valid MCP tool result (${capText(describeError(error).replace(/\s+/g, ' '), 300)}). Check whether the call had an effect before retrying, or use another tool.`,
        );
      }
      if (!(error instanceof McpError)) {
        // Not an answer from the server: it could not be reached (gone, or its session expired).
        const reason = describeError(error);
        lookup.reportBroken(reason);
        return mcpErrorResult(
          `Could not reach MCP server "${server}" for the call of ${definition.name}: ${reason}. It is being reconnected; try again later.`,
        );
      }
      if (error.code === ErrorCode.InvalidParams) {
        return mcpErrorResult(
          `The ${where} rejected its arguments: ${describeMcpError(error)}. Fix the arguments to match the tool's schema.`,
        );
      }
      return mcpErrorResult(`The ${where} failed: ${describeMcpError(error)}`);
    }
  };

  return defineTool<Record<string, unknown>, CallToolResult>({
    name: options.name,
    inputSchema: jsonSchema(definition.inputSchema),
    prompt: description,
    origin: 'external',
    external: { server, tool: definition.name },
    // A title ("Read Text File") is worth searching on; the name and description are indexed anyway.
    ...(title === undefined ? {} : { searchHint: title }),
    shouldDefer: options.shouldDefer,
    alwaysLoad: options.alwaysLoad,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => destructive,
    call,
    mapResult: (output) => mapMcpOutput(output),
    userFacingName: () => `${server} - ${title ?? definition.name} (MCP)`,
  });
}
