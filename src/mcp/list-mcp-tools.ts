import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolSchema, type Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonSchemaObject } from '../contract/tool.js';
import { jsonSchemaProblem } from '../schema/parse-input.js';
import { collectMcpPages } from './collect-mcp-pages.js';
import { isSchemaError } from './describe-mcp-error.js';

/** The longest tool name we take from a server (the MCP specification's limit). */
const MAX_TOOL_NAME_LENGTH = 128;

/** A page of `tools/list` whose tools are not checked yet: each is checked on its own. */
const LoosePage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** A tool a server listed that cannot be offered, and why. */
export type SkippedMcpTool = { readonly tool: string; readonly reason: string };

/** The tools of one listing that can be offered, and those skipped. */
export type McpToolListing = { readonly tools: McpToolDefinition[]; readonly skipped: SkippedMcpTool[] };

function nameOf(item: unknown, index: number): string {
  const name = typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.length > 0
    ? JSON.stringify(name.slice(0, 80))
    : `#${index + 1} (it has no name)`;
}

/** Why one listed tool cannot be offered, or `undefined` for a tool that can. */
function problemOf(item: unknown): string | undefined {
  const parsed = ToolSchema.safeParse(item);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return `it is not a valid MCP tool definition (${where}${issue?.message ?? 'invalid'})`;
  }
  const { name, inputSchema } = parsed.data;
  if (name.length === 0 || name.length > MAX_TOOL_NAME_LENGTH || /[\p{Cc}\p{Cf}\s]/u.test(name))
    return `its name must be 1 to ${MAX_TOOL_NAME_LENGTH} characters without spaces or control characters`;
  const schemaProblem = jsonSchemaProblem(inputSchema as JsonSchemaObject);
  // Offered anyway, it would make the API refuse every request that lists it.
  if (schemaProblem !== undefined) return `its inputSchema is not a valid JSON Schema (${schemaProblem})`;
  return undefined;
}

/** Splits listed items into tools that can be offered and those skipped, with why. */
export function checkMcpTools(items: readonly unknown[]): McpToolListing {
  const tools: McpToolDefinition[] = [];
  const skipped: SkippedMcpTool[] = [];
  items.forEach((item, index) => {
    const problem = problemOf(item);
    if (problem === undefined) tools.push(item as McpToolDefinition);
    else skipped.push({ tool: nameOf(item, index), reason: problem });
  });
  return { tools, skipped };
}

/**
 * Every page of a server's `tools/list`. A page the SDK accepts is used as it is (so the SDK keeps
 * its output-schema validators); a page it rejects is fetched again unchecked, so one malformed
 * tool costs only that tool: each tool is then checked on its own.
 */
export async function listMcpTools(
  client: Client,
  options: { readonly signal: AbortSignal; readonly timeout: number },
): Promise<McpToolListing> {
  const items = await collectMcpPages('tools/list', async (cursor) => {
    const params = cursor === undefined ? {} : { cursor };
    try {
      const page = await client.listTools(params, options);
      return { items: page.tools as unknown[], nextCursor: page.nextCursor };
    } catch (error) {
      if (!isSchemaError(error)) throw error;
      const page = await client.request({ method: 'tools/list', params }, LoosePage, options);
      return { items: page.tools, nextCursor: page.nextCursor };
    }
  });
  return checkMcpTools(items);
}

/**
 * Fetches a connected server's tools for a connection: none when it offers no tools, and each
 * skipped tool told through `onWarning` once for the connection's life, not on every refresh.
 */
export function createMcpToolFetcher(options: {
  readonly timeoutMs: number;
  readonly onWarning: (message: string) => void;
}): (client: Client, signal: AbortSignal) => Promise<McpToolDefinition[]> {
  const warned = new Set<string>();
  return async (client, signal) => {
    if (client.getServerCapabilities()?.tools === undefined) return [];
    const { tools, skipped } = await listMcpTools(client, { signal, timeout: options.timeoutMs });
    for (const { tool, reason } of skipped) {
      const message = `skipped tool ${tool}: ${reason}; its other tools are available`;
      if (!warned.has(message)) options.onWarning(message);
      warned.add(message);
    }
    return tools;
  };
}
