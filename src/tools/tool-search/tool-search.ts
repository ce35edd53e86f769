import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import type { ToolReferenceBlock } from '../../messages/types.js';
import { deferredToolsService, type DeferredToolsState, type FailedServer } from './deferred-tools-service.js';
import { TOOL_SEARCH_PROMPT } from './prompt.js';
import { TOOL_SEARCH_NAME } from './tool-search-name.js';

/** Default number of matches. */
export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

const inputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .describe(
      'Query to find deferred tools: "select:<tool_name>[,<tool_name>…]" for exact names, an "mcp__<server>" prefix, "+word" required words, or keywords.',
    ),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe(`Maximum number of results to return (default ${DEFAULT_TOOL_SEARCH_RESULTS}).`),
});

/** ToolSearch's input. */
export type ToolSearchInput = z.infer<typeof inputSchema>;

/** What a ToolSearch call found; mapped to `tool_reference` blocks for the model. */
export type ToolSearchOutput = {
  readonly query: string;
  /** Tool names, best first. */
  readonly matches: readonly string[];
  readonly totalDeferredTools: number;
  /** `select:` names that are neither deferred nor loaded. */
  readonly unknownNames: readonly string[];
  readonly pendingServers: readonly string[];
  readonly failedServers: readonly FailedServer[];
};

const EMPTY_STATE: DeferredToolsState = {
  deferredTools: [],
  loadedToolNames: [],
  pendingServers: [],
  failedServers: [],
  search: () => ({ matches: [], unknownNames: [] }),
};

/** Options of {@link createToolSearchTool}. */
export type ToolSearchToolOptions = Record<string, never>;

/**
 * Creates the ToolSearch tool: read-only, concurrency-safe, always loaded, never deferred. It
 * reads the deferred tools and the host's ranking from {@link deferredToolsService} and answers
 * with `tool_reference` blocks, or, when nothing matched, a line that names the servers still
 * connecting and those that failed, with why. When nothing matched while servers are connecting,
 * it waits for them (as long as the host allows) and searches once more.
 */
export function createToolSearchTool(_options: ToolSearchToolOptions = {}): Tool<ToolSearchInput, ToolSearchOutput> {
  return defineBuiltinTool<ToolSearchInput, ToolSearchOutput>('ToolSearch', {
    name: TOOL_SEARCH_NAME,
    services: [deferredToolsService],
    inputSchema,
    prompt: TOOL_SEARCH_PROMPT,
    searchHint: 'find load discover deferred tools schemas',
    alwaysLoad: true,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    describeInput: (input) => input.query,
    async call(input, context) {
      const read = context.services.get(deferredToolsService);
      let state = read?.() ?? EMPTY_STATE;
      const maxResults = input.max_results ?? DEFAULT_TOOL_SEARCH_RESULTS;
      let result = state.search(state.deferredTools, input.query, maxResults);
      if (
        read &&
        state.pendingServers.length > 0 &&
        state.waitForPendingServers &&
        (result.matches.length === 0 || result.unknownNames.length > 0)
      ) {
        await state.waitForPendingServers(context.signal);
        state = read();
        result = state.search(state.deferredTools, input.query, maxResults);
      }
      const matches = [...result.matches];
      const unknownNames: string[] = [];
      const loaded = new Map(state.loadedToolNames.map((name) => [name.toLowerCase(), name]));
      for (const name of result.unknownNames) {
        // Naming a tool that is already loaded is a harmless no-op: it is referenced again.
        const loadedName = loaded.get(name.toLowerCase());
        if (loadedName === undefined) unknownNames.push(name);
        else if (matches.length < maxResults && !matches.includes(loadedName)) matches.push(loadedName);
      }
      return {
        query: input.query,
        matches,
        totalDeferredTools: state.deferredTools.length,
        unknownNames,
        pendingServers: state.pendingServers,
        failedServers: state.failedServers,
      };
    },
    mapResult: mapToolSearchResult,
  });
}

/** The ToolSearch tool with its own index cache. */
export const toolSearchTool = createToolSearchTool();

/** Maps a ToolSearch output for the model: `tool_reference` blocks, or a line saying why none. */
export function mapToolSearchResult(output: ToolSearchOutput): MappedResult {
  if (output.matches.length > 0) {
    const blocks: ToolReferenceBlock[] = output.matches.map((name) => ({ type: 'tool_reference', tool_name: name }));
    return { content: blocks };
  }
  const lines = [noMatchLine(output)];
  if (output.pendingServers.length > 0) {
    lines.push(
      `MCP servers still connecting: ${output.pendingServers.join(', ')}. Their tools are not searchable yet; search again in a moment.`,
    );
  }
  for (const server of output.failedServers) {
    lines.push(`MCP server ${server.name} failed to connect: ${server.reason}. Its tools are unavailable.`);
  }
  return { content: lines.join('\n') };
}

function noMatchLine(output: ToolSearchOutput): string {
  if (output.unknownNames.length > 0) {
    return `No tool named ${output.unknownNames.join(', ')} (searched ${output.totalDeferredTools} deferred tools). Check the names in the deferred tools list, or search by keywords.`;
  }
  if (output.totalDeferredTools === 0) return 'No deferred tools are available to search.';
  return `No deferred tools matched "${output.query}" (searched ${output.totalDeferredTools}). Try other keywords, fewer required (+) words, or "select:<name>" for a name from the deferred tools list.`;
}
