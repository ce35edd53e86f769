import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import type { ToolResultContentBlock } from '../../messages/types.js';
import { mcpResourcesService, NO_MCP_MESSAGE } from './mcp-resource-service.js';
import type { McpResourcePart } from './mcp-resource-service.js';

/** The reference system's name for the tool. */
export const READ_MCP_RESOURCE_NAME = 'ReadMcpResourceTool';

const inputSchema = z.strictObject({
  server: z.string().describe('Name of the MCP server that offers the resource'),
  uri: z.string().describe('The uri of the resource, exactly as the server lists it'),
});

/** ReadMcpResourceTool's input. */
export type ReadMcpResourceInput = z.infer<typeof inputSchema>;

/** The read resource's parts, or why it could not be read. */
export type ReadMcpResourceOutput =
  | {
      readonly kind: 'contents';
      readonly server: string;
      readonly uri: string;
      readonly contents: readonly McpResourcePart[];
    }
  | { readonly kind: 'error'; readonly message: string };

const PROMPT = `Reads one resource from an MCP server: give the server's name and the resource's uri, as ListMcpResourcesTool or a tool's resource link shows them.
Text comes back as text; images as images; other binary content as a note with its type and size.`;

/** Image types the Messages API takes in an image block. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function mapPart(part: McpResourcePart): ToolResultContentBlock {
  const type = part.mimeType === undefined ? '' : ` (${part.mimeType})`;
  if ('text' in part) return { type: 'text', text: `[Resource ${part.uri}${type}]\n${part.text}` };
  if (part.mimeType !== undefined && IMAGE_TYPES.has(part.mimeType)) {
    return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.blob } };
  }
  if (part.mimeType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: part.blob },
      title: part.uri,
    };
  }
  const bytes = Math.floor((part.blob.length * 3) / 4);
  return {
    type: 'text',
    text: `[Resource ${part.uri}${type}: about ${bytes} bytes of binary content, not shown: this content type cannot be passed to the model]`,
  };
}

function mapRead(output: ReadMcpResourceOutput): MappedResult {
  if (output.kind === 'error') return { content: output.message, isError: true };
  if (output.contents.length === 0) return { content: `Resource ${output.uri} on server "${output.server}" is empty.` };
  const blocks = output.contents.map(mapPart);
  const only = blocks[0];
  return blocks.length === 1 && only?.type === 'text' ? { content: only.text } : { content: blocks };
}

/**
 * ReadMcpResourceTool (alias ReadMcpResource): reads one resource of an MCP server. Text parts
 * come back as text headed by their URI, images as image blocks, PDFs as documents, other binary
 * parts as a note with their size. Read-only and concurrency-safe.
 */
export const readMcpResourceTool: Tool<ReadMcpResourceInput, ReadMcpResourceOutput> = defineBuiltinTool(
  'ReadMcpResourceTool',
  {
    name: READ_MCP_RESOURCE_NAME,
    optionalServices: [mcpResourcesService],
    aliases: ['ReadMcpResource'],
    searchHint: 'mcp resource read fetch uri document',
    inputSchema,
    prompt: PROMPT,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Read MCP resource',
    describeInput: (input) => `${input.server}: ${input.uri}`,
    async call(input, context): Promise<ReadMcpResourceOutput> {
      const access = context.services.get(mcpResourcesService);
      if (access === undefined) return { kind: 'error', message: NO_MCP_MESSAGE };
      const answer = await access.readResource({ server: input.server, uri: input.uri, signal: context.signal });
      if (!answer.ok) return { kind: 'error', message: answer.message };
      return { kind: 'contents', server: input.server, uri: input.uri, contents: answer.contents };
    },
    mapResult: mapRead,
  },
);
