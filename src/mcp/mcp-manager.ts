import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../contract/tool.js';
import { createMcpConnection } from './mcp-connection.js';
import type { McpConnection, McpReconnectPolicy } from './mcp-connection-types.js';
import { createMcpTool } from './create-mcp-tool.js';
import type { McpClientLookup } from './create-mcp-tool.js';
import { buildMcpToolPool, type McpToolPoolMemory } from './build-mcp-tool-pool.js';
import { isLive, lookupSlotClient, snapshotSlot, type ServerSlot } from './mcp-server-slot.js';
import { mcpServerNameProblem } from './mcp-tool-name.js';
import type { McpServerEntry } from './merge-mcp-configs.js';
import type { McpManagerEvent, McpManagerOptions, McpServerSnapshot } from './mcp-manager-types.js';
import { createMcpEventHub, createSettleWaiters } from './mcp-event-hub.js';
import { createMcpResourceReader } from './mcp-resource-reader.js';
import type { McpResourceReader } from './mcp-resource-reader.js';

const DEFAULT_RECONNECT: McpReconnectPolicy = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 600_000;

/** The connections to every configured MCP server, and their tools as ordinary tools. */
export type McpManager = McpResourceReader & {
  /** Every configured server with its state, sorted by name. */
  servers(): readonly McpServerSnapshot[];
  /** The tools of connected (and reconnecting) servers: servers by name, tools in server order. */
  tools(): readonly AnyTool[];
  /** Calls `listener` on every event until the returned function is called. */
  subscribe(listener: (event: McpManagerEvent) => void): () => void;
  /** Resolves once no server is pending (connected, failed or disabled), or when `signal` aborts. */
  whenSettled(options: { readonly signal: AbortSignal }): Promise<void>;
  /** Drops and reconnects a server (after a failure, or on a person's request). */
  reconnect(server: string): void;
  /** Closes every connection and stops every server process. Idempotent. */
  close(): Promise<void>;
};

function disabledReason(entry: McpServerEntry, options: McpManagerOptions): string | undefined {
  // Config loading refuses such names already; a host that builds entries itself gets the same.
  const nameProblem = mcpServerNameProblem(entry.name);
  if (nameProblem !== undefined) return `not started: ${nameProblem}`;
  if (entry.fromWorkspace && !options.trusted) return 'not started: workspace not trusted';
  if (options.disabledServers?.includes(entry.name) === true) return 'not started: disabled';
  return undefined;
}

/**
 * Starts connecting every configured server in parallel and returns at once: the first model
 * request never waits for MCP. Servers from the workspace stay `disabled` when it is not trusted.
 * Tools are rebuilt when a server connects, fails or sends `list_changed`; an unchanged tool keeps
 * its object (so cached schemas stay valid). Tool names follow `assignMcpToolNames`: clashing
 * names are renamed and reported, a tool a server lists twice is kept once and reported.
 */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const hub = createMcpEventHub();
  const { emit } = hub;
  const slots = new Map<string, ServerSlot>();
  const policy: McpReconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
  const memory: McpToolPoolMemory = {
    fingerprints: new Map<string, string>(options.knownFingerprints ?? []),
    builtTools: new Map(),
    reportedCollisions: new Set<string>(),
  };
  let pool: readonly AnyTool[] = [];
  let closed = false;

  const isSettled = (): boolean => [...slots.values()].every((slot) => slot.state.status !== 'pending');
  const settling = createSettleWaiters(isSettled);

  const lookupClient = (server: string): McpClientLookup => lookupSlotClient(slots.get(server), policy);

  const rebuild = (changedServer: string): void => {
    const built = buildMcpToolPool({
      slots: slots.values(),
      changedServer,
      memory,
      ...(options.isApproved ? { isApproved: options.isApproved } : {}),
      buildTool,
    });
    // Events go out after the pool is replaced, so listeners that read `tools()` see the new one.
    pool = built.pool;
    for (const event of built.events) emit(event);
    emit({ type: 'tools-change', server: changedServer, tools: pool });
  };

  const buildTool = (server: string, definition: McpToolDefinition, name: string): AnyTool => {
    const config = slots.get(server)?.entry.config;
    const alwaysLoad = config !== undefined && (!config.defer || config.alwaysLoad.includes(definition.name));
    return createMcpTool({
      server,
      definition,
      name,
      lookupClient: () => lookupClient(server),
      callTimeoutMs: config?.timeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      shouldDefer: !alwaysLoad,
      alwaysLoad,
      ...(options.maxDescriptionChars === undefined ? {} : { maxDescriptionChars: options.maxDescriptionChars }),
    });
  };

  for (const entry of options.servers) {
    const reason = disabledReason(entry, options);
    let connection: McpConnection | undefined;
    if (reason === undefined) {
      connection = createMcpConnection({
        name: entry.name,
        config: entry.config,
        baseEnv: options.baseEnv,
        cwd: options.cwd,
        clientInfo: options.clientInfo ?? { name: 'toolplane', version: '0.1.0' },
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        reconnect: policy,
        ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
        listener: {
          onState(state) {
            const slot = slots.get(entry.name);
            if (slot === undefined || closed) return;
            const wasLive = isLive(slot.state);
            slot.state = state;
            emit({ type: 'server-state-change', server: entry.name, state });
            if (wasLive !== isLive(state)) rebuild(entry.name);
            if (isSettled()) settling.release();
          },
          onTools(definitions) {
            const slot = slots.get(entry.name);
            if (slot === undefined || closed) return;
            slot.definitions = definitions;
            if (isLive(slot.state)) rebuild(entry.name);
          },
          onWarning(message) {
            emit({ type: 'server-warning', server: entry.name, message });
          },
        },
      });
    }
    slots.set(entry.name, {
      entry,
      connection,
      state: reason === undefined ? { status: 'pending' } : { status: 'disabled', reason },
      definitions: [],
    });
  }
  for (const slot of slots.values()) slot.connection?.start();

  const resources = createMcpResourceReader({ lookupClient, serverNames: () => [...slots.keys()] });

  return {
    ...resources,
    servers: () =>
      [...slots.values()]
        .map((slot) => snapshotSlot(slot, pool))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    tools: () => pool,
    subscribe: hub.subscribe,
    whenSettled: ({ signal }) => settling.wait(signal, closed),
    reconnect(server) {
      const slot = slots.get(server);
      if (slot?.connection === undefined || closed) return;
      slot.connection.restart();
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...slots.values()].map((slot) => slot.connection?.close()));
      pool = [];
      settling.release();
      hub.clear();
    },
  };
}
