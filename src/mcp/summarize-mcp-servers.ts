import type { McpServerSnapshot } from './mcp-manager-types.js';

/** Servers still connecting and servers that failed, as ToolSearch and the deferred-tools note tell the model. */
export type McpServerSummary = {
  /** Names of servers connecting or reconnecting: their tools may appear later. */
  readonly pendingServers: readonly string[];
  readonly failedServers: readonly { readonly name: string; readonly reason: string }[];
};

/**
 * Sums up server states for the model: pending (connecting or reconnecting) and failed, with the
 * reason. Disabled servers are left out: they were turned off on purpose, not broken.
 */
export function summarizeMcpServers(servers: readonly McpServerSnapshot[]): McpServerSummary {
  const pendingServers: string[] = [];
  const failedServers: { name: string; reason: string }[] = [];
  for (const server of servers) {
    if (server.state.status === 'pending') pendingServers.push(server.name);
    else if (server.state.status === 'failed') failedServers.push({ name: server.name, reason: server.state.reason });
  }
  return { pendingServers, failedServers };
}
