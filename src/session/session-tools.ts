import type { ServiceRegistry } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import { createDeferralTracker, type DeferralTracker } from '../loop/deferral.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import type { ToolPool } from '../pool/tool-pool.js';
import { createDeferredToolSearch } from '../search/create-deferred-tool-search.js';
import { deferredToolsService } from '../tools/tool-search/deferred-tools-service.js';
import { isDeferred } from '../tools/tool-search/is-deferred.js';
import { TOOL_SEARCH_NAME } from '../tools/tool-search/tool-search-name.js';

/** How long ToolSearch may wait for MCP servers still connecting when it found nothing. */
const MCP_WAIT_MS = 5_000;

/** The tools of a session: its pool (rebuilt when MCP tools change) and how deferred tools work. */
export type SessionTools = {
  pool(): ToolPool;
  /** The loop's view of deferred tools, computed once per request and read by ToolSearch. */
  readonly deferral: DeferralTracker;
};

/**
 * Whether a session offers ToolSearch: only where there is something to search — a deferred tool
 * of its own or an MCP server configured (connected or not). Decided once at start, so a server
 * that connects late adds deferred tools without changing `tools[]` or the system prompt.
 */
export function offersToolSearch(tools: readonly AnyTool[], mcp: McpManager | undefined): boolean {
  return (mcp?.servers().length ?? 0) > 0 || tools.some((tool) => isDeferred(tool));
}

/**
 * Builds the session's pool from its own tools and the MCP servers' tools (blanket-denied tools
 * left out; ToolSearch only when some tool is deferred or an MCP server is configured), the
 * loop's deferral tracker, and registers the service ToolSearch reads.
 */
export function createSessionTools(options: {
  readonly tools: readonly AnyTool[];
  readonly mcp: McpManager | undefined;
  readonly isBlanketDenied?: (toolName: string) => boolean;
  readonly services: ServiceRegistry;
}): SessionTools {
  const { mcp } = options;
  const builtins = offersToolSearch(options.tools, mcp)
    ? options.tools
    : options.tools.filter((tool) => tool.builtin !== 'ToolSearch');
  let cache: { readonly external: readonly AnyTool[]; readonly pool: ToolPool } | undefined;
  const pool = (): ToolPool => {
    const external = mcp?.tools() ?? [];
    if (!cache || cache.external !== external) {
      const isBlanketDenied = options.isBlanketDenied;
      cache = {
        external,
        pool: assembleToolPool({
          builtins,
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
  const deferral = createDeferralTracker({
    isDeferred: (tool) => isDeferred(tool),
    pendingServers,
    searchToolName: TOOL_SEARCH_NAME,
  });
  const search = createDeferredToolSearch();
  options.services.set(deferredToolsService, () => {
    const tools = pool().tools;
    // The view the model's last request was built from: what it has loaded is what it can call.
    const discovered = new Set(deferral.current()?.discovered.map((tool) => tool.name));
    const isLoaded = (tool: AnyTool) => !isDeferred(tool) || discovered.has(tool.name);
    return {
      search,
      ...(mcp
        ? {
            waitForPendingServers: (signal: AbortSignal) =>
              mcp.whenSettled({ signal: AbortSignal.any([signal, AbortSignal.timeout(MCP_WAIT_MS)]) }),
          }
        : {}),
      deferredTools: tools.filter((tool) => isDeferred(tool)),
      loadedToolNames: tools.filter(isLoaded).map((tool) => tool.name),
      pendingServers: pendingServers(),
      failedServers: servers().flatMap((server) =>
        server.state.status === 'failed' ? [{ name: server.name, reason: server.state.reason }] : [],
      ),
    };
  });
  return { pool, deferral };
}
