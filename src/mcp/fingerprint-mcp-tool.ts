import { createHash } from 'node:crypto';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';

/** JSON with object keys sorted at every level, so equal definitions give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A stable hash (hex sha256) of what a person approves when they approve an MCP tool: its name,
 * title, description, input schema and annotations. Key order does not matter; any change to
 * those fields changes the fingerprint. Hosts may store it with an approval and pass it back.
 */
export function fingerprintMcpTool(tool: McpToolDefinition): string {
  const approved = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  };
  return createHash('sha256').update(canonicalJson(approved)).digest('hex');
}
