import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { collectMcpPages } from './collect-mcp-pages.js';
import { describeMcpError } from './describe-mcp-error.js';
import type { McpClientLookup } from './create-mcp-tool.js';
import type { McpResourceSummary } from './mcp-manager-types.js';

/** A server that could not be asked for its resources, and why. */
export type McpUnavailableServer = { readonly server: string; readonly reason: string };

/** The resources of the asked servers. */
export type McpResourceListing = {
  readonly resources: readonly McpResourceSummary[];
  readonly unavailable: readonly McpUnavailableServer[];
};

/** One part of a read resource: text, or base64 `blob` for binary content. */
export type McpResourceContent =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** Listing and reading resources; failures are messages for the model, only an abort rejects. */
export type McpResourceReader = {
  listResources(options: {
    readonly server?: string;
    readonly signal: AbortSignal;
  }): Promise<
    { readonly ok: true; readonly listing: McpResourceListing } | { readonly ok: false; readonly message: string }
  >;
  readResource(options: {
    readonly server: string;
    readonly uri: string;
    readonly signal: AbortSignal;
  }): Promise<
    | { readonly ok: true; readonly contents: readonly McpResourceContent[] }
    | { readonly ok: false; readonly message: string }
  >;
};

/** Options for {@link createMcpResourceReader}. */
export type McpResourceReaderOptions = {
  readonly lookupClient: (server: string) => McpClientLookup;
  readonly serverNames: () => readonly string[];
};

const RESOURCE_TIMEOUT_MS = 30_000;

async function listServerResources(server: string, client: Client, signal: AbortSignal): Promise<McpResourceSummary[]> {
  if (client.getServerCapabilities()?.resources === undefined) return [];
  return collectMcpPages('resources/list', async (cursor) => {
    const page = await client.listResources(cursor === undefined ? {} : { cursor }, {
      signal,
      timeout: RESOURCE_TIMEOUT_MS,
    });
    const items = page.resources.map((resource): McpResourceSummary => ({
      server,
      uri: resource.uri,
      name: resource.name,
      ...(resource.title === undefined ? {} : { title: resource.title }),
      ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
      ...(resource.description === undefined ? {} : { description: resource.description }),
    }));
    return { items, nextCursor: page.nextCursor };
  });
}

/** Builds resource listing and reading over the manager's live clients. */
export function createMcpResourceReader(options: McpResourceReaderOptions): McpResourceReader {
  const unknownServer = (server: string): string => {
    const names = options.serverNames();
    return `There is no MCP server named "${server}". ${names.length > 0 ? `Configured servers: ${names.join(', ')}.` : 'No MCP servers are configured.'}`;
  };
  return {
    async listResources({ server, signal }) {
      const names = options.serverNames();
      if (server !== undefined && !names.includes(server)) return { ok: false, message: unknownServer(server) };
      const asked = server === undefined ? names : [server];
      const resources: McpResourceSummary[] = [];
      const unavailable: McpUnavailableServer[] = [];
      const answers = await Promise.all(
        asked.map(async (name) => {
          const lookup = options.lookupClient(name);
          if (lookup.status === 'unavailable') return { name, error: `not connected: ${lookup.reason}` };
          try {
            return { name, found: await listServerResources(name, lookup.client, signal) };
          } catch (error) {
            if (signal.aborted) throw signal.reason ?? error;
            return { name, error: `resources/list failed: ${describeMcpError(error)}` };
          }
        }),
      );
      for (const answer of answers) {
        if ('found' in answer && answer.found !== undefined) resources.push(...answer.found);
        else unavailable.push({ server: answer.name, reason: answer.error ?? 'unknown error' });
      }
      return { ok: true, listing: { resources, unavailable } };
    },
    async readResource({ server, uri, signal }) {
      if (!options.serverNames().includes(server)) return { ok: false, message: unknownServer(server) };
      const lookup = options.lookupClient(server);
      if (lookup.status === 'unavailable')
        return { ok: false, message: `MCP server "${server}" is not connected: ${lookup.reason}. Try again later.` };
      try {
        const result = await lookup.client.readResource({ uri }, { signal, timeout: RESOURCE_TIMEOUT_MS });
        return { ok: true, contents: result.contents };
      } catch (error) {
        if (signal.aborted) throw signal.reason ?? error;
        return {
          ok: false,
          message: `MCP server "${server}" could not read ${uri}: ${describeMcpError(error)}. List the server's resources with ListMcpResourcesTool to find a valid URI.`,
        };
      }
    },
  };
}
