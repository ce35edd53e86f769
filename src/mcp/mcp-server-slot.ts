import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpClientLookup } from './create-mcp-tool.js';
import type { McpConnection, McpReconnectPolicy, McpServerState } from './mcp-connection-types.js';
import type { McpServerSnapshot } from './mcp-manager-types.js';
import type { McpServerEntry } from './merge-mcp-configs.js';
import type { AnyTool } from '../contract/tool.js';

/** One configured server as the manager holds it: its entry, its connection (none when disabled), its state and tools. */
export type ServerSlot = {
  readonly entry: McpServerEntry;
  readonly connection: McpConnection | undefined;
  state: McpServerState;
  definitions: readonly McpToolDefinition[];
};

/** Whether a server's tools are offered: connected, or reconnecting after it was up. */
export function isLive(state: McpServerState): boolean {
  return state.status === 'connected' || (state.status === 'pending' && state.attempt !== undefined);
}

/** A server's client at call time, or why there is none (in words for the model). */
export function lookupSlotClient(slot: ServerSlot | undefined, policy: McpReconnectPolicy): McpClientLookup {
  const connection = slot?.connection;
  const client = connection?.client();
  if (connection !== undefined && client !== undefined) {
    return {
      status: 'connected',
      client,
      reportBroken: (reason) => connection.reportBroken(client, reason),
      dropReason: () => connection.dropReason(client),
    };
  }
  const state = slot?.state;
  if (state === undefined) return { status: 'unavailable', reason: 'it is not configured' };
  switch (state.status) {
    case 'pending':
      return {
        status: 'unavailable',
        reason:
          state.attempt === undefined
            ? 'still connecting'
            : `reconnecting (attempt ${state.attempt} of ${policy.maxAttempts}) after: ${state.lastError ?? 'the connection dropped'}`,
      };
    case 'failed':
    case 'disabled':
      return { status: 'unavailable', reason: state.reason };
    case 'connected':
      return { status: 'unavailable', reason: 'the connection just dropped' };
  }
}

/** What `servers()` shows of one slot; `pool` gives its tool names. */
export function snapshotSlot(slot: ServerSlot, pool: readonly AnyTool[]): McpServerSnapshot {
  const client = slot.connection?.client();
  const info = client?.getServerVersion();
  const instructions = client?.getInstructions();
  return {
    name: slot.entry.name,
    scope: slot.entry.scope,
    file: slot.entry.file,
    transport: slot.entry.config.type,
    state: slot.state,
    toolNames: pool.filter((tool) => tool.external?.server === slot.entry.name).map((tool) => tool.name),
    ...(info === undefined ? {} : { serverInfo: { name: info.name, version: info.version } }),
    ...(instructions === undefined ? {} : { instructions }),
  };
}
