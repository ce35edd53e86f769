import { defineService } from '../../contract/services.js';
import type { AnyTool } from '../../contract/tool.js';

/** An MCP server that could not connect, and why (shown to the model by ToolSearch). */
export type FailedServer = { readonly name: string; readonly reason: string };

/** What ToolSearch searches: the current deferred tools and the state of the MCP servers. */
export type DeferredToolsState = {
  /** Tools announced by name only, whose schemas ToolSearch loads. */
  readonly deferredTools: readonly AnyTool[];
  /** Names of the tools already in `tools[]`: `select:` on them is a harmless no-op. */
  readonly loadedToolNames: readonly string[];
  /** Servers still connecting: their tools may appear later. */
  readonly pendingServers: readonly string[];
  readonly failedServers: readonly FailedServer[];
  /** Ranks `tools` for a query: the host's search index (the search stage), handed in here. */
  readonly search: (
    tools: readonly AnyTool[],
    query: string,
    maxResults: number,
  ) => {
    readonly matches: readonly string[];
    readonly unknownNames: readonly string[];
  };
  /**
   * Waits (for as long as the host allows) until no server is pending. ToolSearch calls it when a
   * query found nothing while servers are still connecting, then searches again.
   */
  readonly waitForPendingServers?: (signal: AbortSignal) => Promise<void>;
};

/**
 * The host service ToolSearch reads at each call. The host registers a function so the answer
 * reflects the pool of the current turn (servers connect and change their tools while it runs).
 */
export const deferredToolsService = defineService<() => DeferredToolsState>('deferred-tools');
