import type { ServiceRegistry } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import type { Message } from '../messages/types.js';
import type { DeferralStrategy } from '../loop/types.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import type { ToolPool } from '../pool/tool-pool.js';
import { createDeferredToolSearch } from '../search/create-deferred-tool-search.js';
import { deferredToolsAnnouncement } from '../tools/tool-search/deferred-tools-announcement.js';
import { deferredToolsService } from '../tools/tool-search/deferred-tools-service.js';
import { discoveredToolNames } from '../tools/tool-search/discovered-tool-names.js';
import { isDeferred } from '../tools/tool-search/is-deferred.js';

/** How long ToolSearch may wait for MCP servers still connecting when it found nothing. */
const MCP_WAIT_MS = 5_000;

/** The tools of a session: its pool (rebuilt when MCP tools change) and how deferred tools work. */
export type SessionTools = {
  pool(): ToolPool;
  readonly deferral: DeferralStrategy;
};

/**
 * Builds the session's pool from its own tools and the MCP servers' tools (blanket-denied tools
 * left out), the deferral strategy of the loop, and registers the service ToolSearch reads.
 * `messages` gives the current history, from which the discovered tools are recomputed.
 */
export function createSessionTools(options: {
  readonly tools: readonly AnyTool[];
  readonly mcp: McpManager | undefined;
  readonly isBlanketDenied?: (toolName: string) => boolean;
  readonly services: ServiceRegistry;
  readonly messages: () => readonly Message[];
}): SessionTools {
  const { mcp } = options;
  let cache: { readonly external: readonly AnyTool[]; readonly pool: ToolPool } | undefined;
  const pool = (): ToolPool => {
    const external = mcp?.tools() ?? [];
    if (!cache || cache.external !== external) {
      const isBlanketDenied = options.isBlanketDenied;
      cache = {
        external,
        pool: assembleToolPool({
          builtins: options.tools,
          external,
          services: options.services,
          ...(isBlanketDenied ? { isBlanketDenied } : {}),
        }),
      };
    }
    return cache.pool;
  };
  const servers = () => mcp?.servers() ?? [];
  const pendingServers = () =>
    servers()
      .filter((server) => server.state.status === 'pending')
      .map((server) => server.name);
  const deferral: DeferralStrategy = {
    isDeferred: (tool) => isDeferred(tool),
    discovered: (messages) => discoveredToolNames(messages),
    announce: (names) => deferredToolsAnnouncement(names, pendingServers()),
  };
  const search = createDeferredToolSearch();
  options.services.set(deferredToolsService, () => {
    const tools = pool().tools;
    const discovered = discoveredToolNames(options.messages());
    return {
      search,
      ...(mcp
        ? {
            waitForPendingServers: (signal: AbortSignal) =>
              mcp.whenSettled({ signal: AbortSignal.any([signal, AbortSignal.timeout(MCP_WAIT_MS)]) }),
          }
        : {}),
      deferredTools: tools.filter((tool) => isDeferred(tool)),
      loadedToolNames: tools.filter((tool) => !isDeferred(tool) || discovered.has(tool.name)).map((tool) => tool.name),
      pendingServers: pendingServers(),
      failedServers: servers().flatMap((server) =>
        server.state.status === 'failed' ? [{ name: server.name, reason: server.state.reason }] : [],
      ),
    };
  });
  return { pool, deferral };
}
