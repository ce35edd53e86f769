import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../contract/tool.js';
import { createMcpConnection } from './mcp-connection.js';
import type { McpConnection, McpReconnectPolicy, McpServerState } from './mcp-connection.js';
import { createMcpTool } from './create-mcp-tool.js';
import type { McpClientLookup } from './create-mcp-tool.js';
import { fingerprintMcpTool } from './fingerprint-mcp-tool.js';
import { assignMcpToolNames, mcpServerNameProblem } from './mcp-tool-name.js';
import type { McpServerEntry } from './merge-mcp-configs.js';
import type { McpManagerEvent, McpManagerOptions, McpServerSnapshot } from './mcp-manager-types.js';
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

type ServerSlot = {
  readonly entry: McpServerEntry;
  readonly connection: McpConnection | undefined;
  state: McpServerState;
  definitions: readonly McpToolDefinition[];
};

function isLive(state: McpServerState): boolean {
  return state.status === 'connected' || (state.status === 'pending' && state.attempt !== undefined);
}

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
  const listeners = new Set<(event: McpManagerEvent) => void>();
  const slots = new Map<string, ServerSlot>();
  const policy: McpReconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
  const fingerprints = new Map<string, string>(options.knownFingerprints ?? []);
  const builtTools = new Map<string, { fingerprint: string; tool: AnyTool }>();
  const reportedCollisions = new Set<string>();
  const settleWaiters = new Set<() => void>();
  let pool: readonly AnyTool[] = [];
  let closed = false;

  const isSettled = (): boolean => [...slots.values()].every((slot) => slot.state.status !== 'pending');

  const emit = (event: McpManagerEvent): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // A listener's fault must not break the connections of every other listener.
      }
    }
  };

  const lookupClient = (server: string): McpClientLookup => {
    const slot = slots.get(server);
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
  };

  const rebuild = (changedServer: string): void => {
    const live = [...slots.values()].filter((slot) => isLive(slot.state));
    const refs: { server: string; definition: McpToolDefinition }[] = [];
    for (const slot of live) {
      const seen = new Set<string>();
      for (const definition of slot.definitions) {
        if (seen.has(definition.name)) {
          if (slot.entry.name === changedServer)
            emit({
              type: 'server-warning',
              server: slot.entry.name,
              message: `lists tool "${definition.name}" more than once; the first definition is used`,
            });
          continue;
        }
        seen.add(definition.name);
        refs.push({ server: slot.entry.name, definition });
      }
    }
    const { names, collisions } = assignMcpToolNames(
      refs.map((ref) => ({ server: ref.server, tool: ref.definition.name })),
    );
    const next: AnyTool[] = [];
    const nextBuilt = new Map<string, { fingerprint: string; tool: AnyTool }>();
    // Events go out after the pool is replaced, so listeners that read `tools()` see the new one.
    const events: McpManagerEvent[] = [];
    refs.forEach((ref, index) => {
      const name = names[index] ?? '';
      const fingerprint = fingerprintMcpTool(ref.definition);
      const previous = fingerprints.get(name);
      if (previous !== undefined && previous !== fingerprint) {
        const identity = { name, server: ref.server, tool: ref.definition.name };
        events.push({
          type: 'tool-definition-change',
          ...identity,
          approved: options.isApproved?.(identity) ?? false,
          previousFingerprint: previous,
          fingerprint,
        });
      }
      fingerprints.set(name, fingerprint);
      const cached = builtTools.get(name);
      const reusable =
        cached !== undefined && cached.fingerprint === fingerprint && cached.tool.external?.server === ref.server;
      const tool = reusable ? cached.tool : buildTool(ref.server, ref.definition, name);
      nextBuilt.set(name, { fingerprint, tool });
      next.push(tool);
    });
    builtTools.clear();
    for (const [name, built] of nextBuilt) builtTools.set(name, built);
    for (const collision of collisions) {
      if (reportedCollisions.has(collision.renamedTo)) continue;
      reportedCollisions.add(collision.renamedTo);
      events.push({ type: 'tool-name-collision', collision });
    }
    pool = next;
    for (const event of events) emit(event);
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
        baseEnv: options.baseEnv ?? process.env,
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
            if (isSettled()) for (const finish of [...settleWaiters]) finish();
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
        .map((slot): McpServerSnapshot => {
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
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    tools: () => pool,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    whenSettled({ signal }) {
      return new Promise<void>((resolve) => {
        if (closed || signal.aborted || isSettled()) {
          resolve();
          return;
        }
        const finish = (): void => {
          settleWaiters.delete(finish);
          signal.removeEventListener('abort', finish);
          resolve();
        };
        settleWaiters.add(finish);
        signal.addEventListener('abort', finish, { once: true });
      });
    },
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
      for (const finish of [...settleWaiters]) finish();
      listeners.clear();
    },
  };
}
