import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { mcpResourcesService, NO_MCP_MESSAGE } from './mcp-resource-service.js';
import type { McpResourceEntry } from './mcp-resource-service.js';

/** The reference system's name for the tool. */
export const LIST_MCP_RESOURCES_NAME = 'ListMcpResourcesTool';

const inputSchema = z.strictObject({
  server: z.string().optional().describe('Name of the MCP server whose resources to list; omit for all servers'),
});

/** ListMcpResourcesTool's input. */
export type ListMcpResourcesInput = z.infer<typeof inputSchema>;

/** What a listing found, or why there is none. */
export type ListMcpResourcesOutput =
  | {
      readonly kind: 'listing';
      readonly resources: readonly McpResourceEntry[];
      readonly unavailable: readonly { readonly server: string; readonly reason: string }[];
    }
  | { readonly kind: 'error'; readonly message: string };

const PROMPT = `Lists the resources (documents, files, records) that the connected MCP servers offer.
Each entry has the resource's uri, name and, when the server gives them, title, mimeType and description, plus the server it comes from. Read one with ReadMcpResourceTool.

Give server to list one server's resources; leave it out to list every server's.`;

function mapListing(output: ListMcpResourcesOutput): MappedResult {
  if (output.kind === 'error') return { content: output.message, isError: true };
  const notes = output.unavailable.map((entry) => `Server "${entry.server}" was not asked: ${entry.reason}.`);
  if (output.resources.length === 0) {
    return {
      content: ['No MCP server offers any resources. Servers without resources can still offer tools.', ...notes].join(
        '\n',
      ),
    };
  }
  return { content: [JSON.stringify(output.resources, null, 2), ...notes].join('\n') };
}

/**
 * ListMcpResourcesTool (alias ListMcpResources): lists the resources of every connected MCP
 * server, or of one. Read-only and concurrency-safe. Servers that are not connected are named
 * with the reason instead of failing the call.
 */
export const listMcpResourcesTool: Tool<ListMcpResourcesInput, ListMcpResourcesOutput> = defineBuiltinTool(
  'ListMcpResourcesTool',
  {
    name: LIST_MCP_RESOURCES_NAME,
    optionalServices: [mcpResourcesService],
    aliases: ['ListMcpResources'],
    searchHint: 'mcp resources list server documents files data',
    inputSchema,
    prompt: PROMPT,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'List MCP resources',
    describeInput: (input) => (input.server === undefined ? 'all servers' : `server ${input.server}`),
    async call(input, context): Promise<ListMcpResourcesOutput> {
      const access = context.services.get(mcpResourcesService);
      if (access === undefined) return { kind: 'error', message: NO_MCP_MESSAGE };
      const answer = await access.listResources({
        ...(input.server === undefined ? {} : { server: input.server }),
        signal: context.signal,
      });
      if (!answer.ok) return { kind: 'error', message: answer.message };
      return { kind: 'listing', resources: answer.listing.resources, unavailable: answer.listing.unavailable };
    },
    mapResult: mapListing,
  },
);
