import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { createMcpTransport } from './create-mcp-transport.js';
import type { McpTransportHandle } from './create-mcp-transport.js';
import { describeMcpError } from './describe-mcp-error.js';
import { explainMcpDrop } from './explain-mcp-drop.js';
import { createMcpToolFetcher } from './list-mcp-tools.js';
import type { McpConnection, McpConnectionOptions, McpServerState } from './mcp-connection-types.js';
import { createListChangedHandler } from './mcp-list-changed.js';

export type {
  McpConnection,
  McpConnectionListener,
  McpConnectionOptions,
  McpReconnectPolicy,
  McpServerState,
} from './mcp-connection-types.js';

/** The SDK's stdio buffer says a message outgrew it (and ends the connection). */
const OVERSIZED = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/** Calls `onOversized` with the reason when `client`'s server sends a message over the buffer's size. */
function watchMessageSize(client: Client, onOversized: (reason: string) => void): void {
  client.onerror = (error) => {
    const match = OVERSIZED.exec(error.message);
    if (match) onOversized(`it sent a message over ${match[1]} bytes, the most a message may have`);
  };
}

/** The wait before reconnect attempt `attempt` (1-based): doubling from the initial delay, capped. */
function retryDelay(policy: McpConnectionOptions['reconnect'], attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
}

/** One pending retry at a time; its timer never keeps the process alive. */
function createRetryTimer(): { schedule(run: () => void, delayMs: number): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    schedule(run, delayMs) {
      timer = setTimeout(() => {
        timer = undefined;
        run();
      }, delayMs);
      timer.unref();
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * A client and transport for one connection attempt, not connected yet: messages over the size
 * limit are reported through `onOversized`, and `list_changed` refetches the tools while the
 * client is the connection's current one.
 */
function createClient(
  options: McpConnectionOptions,
  wiring: {
    readonly signal: AbortSignal;
    readonly isCurrent: (client: Client) => boolean;
    readonly onOversized: (client: Client, reason: string) => void;
  },
): {
  client: Client;
  handle: McpTransportHandle;
  /** The server's tools now; a skipped tool is warned about once for this client. */
  fetchTools: (signal: AbortSignal) => Promise<McpToolDefinition[]>;
} {
  const handle = createMcpTransport({
    config: options.config,
    baseEnv: options.baseEnv,
    cwd: options.cwd,
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
  });
  const client = new Client(options.clientInfo, { capabilities: {} });
  const fetcher = createMcpToolFetcher({
    timeoutMs: options.connectTimeoutMs,
    onWarning: (message) => options.listener.onWarning(message),
  });
  const fetchTools = (signal: AbortSignal) => fetcher(client, signal);
  watchMessageSize(client, (reason) => wiring.onOversized(client, reason));
  client.setNotificationHandler(
    ToolListChangedNotificationSchema,
    createListChangedHandler({
      isCurrent: () => wiring.isCurrent(client),
      signal: wiring.signal,
      refresh: async (signal) => {
        const tools = await fetchTools(signal);
        if (wiring.isCurrent(client)) options.listener.onTools(tools);
      },
      onError: (error) =>
        options.listener.onWarning(`could not refresh the tool list after list_changed: ${describeMcpError(error)}`),
    }),
  );
  return { client, handle, fetchTools };
}

/**
 * Creates the connection to one server. A first connection that fails marks the server failed
 * with the reason (no retry; {@link McpConnection.restart} tries again). A connection that drops
 * after it was up is retried with exponential backoff up to the policy's attempts (counted across
 * reconnects that do not stay up for `stableAfterMs`); meanwhile the
 * state is `pending` with the attempt and the reason it dropped. `notifications/tools/list_changed`
 * refetches the tool list; refreshes never overlap. A listed tool that cannot be offered (not a
 * valid definition, a name no API takes, an input schema that does not compile) is skipped with a
 * warning naming it; the server's other tools stay.
 */
export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const { listener } = options;
  let state: McpServerState = { status: 'pending' };
  let current: { client: Client; handle: McpTransportHandle } | undefined;
  let connected: Client | undefined;
  let generation = 0;
  let closed = false;
  let attemptController: AbortController | undefined;
  const retry = createRetryTimer();
  let brokenReason: string | undefined;
  const dropReasons = new WeakMap<Client, string>();
  const takeBrokenReason = (): string | undefined => {
    const reason = brokenReason;
    brokenReason = undefined;
    return reason;
  };

  const setState = (next: McpServerState): void => {
    state = next;
    listener.onState(next);
  };

  const connectOnce = async (attempt: number): Promise<void> => {
    const myGeneration = ++generation;
    const controller = new AbortController();
    attemptController = controller;
    const { client, handle, fetchTools } = createClient(options, {
      signal: controller.signal,
      isCurrent: (candidate) => connected === candidate,
      onOversized: (oversized, reason) => {
        dropReasons.set(oversized, reason);
        brokenReason = `the connection was reset because ${reason}`;
      },
    });
    current = { client, handle };
    let tools: McpToolDefinition[];
    try {
      await client.connect(handle.transport, { signal: controller.signal, timeout: options.connectTimeoutMs });
      tools = await fetchTools(controller.signal);
    } catch (error) {
      if (closed || myGeneration !== generation) return;
      const reason = takeBrokenReason() ?? explainMcpDrop(error, handle, options.connectTimeoutMs);
      controller.abort();
      await client.close().catch(() => undefined);
      if (attempt === 0) setState({ status: 'failed', reason });
      else scheduleRetry(attempt + 1, reason);
      return;
    }
    if (closed || myGeneration !== generation) {
      await client.close().catch(() => undefined);
      return;
    }
    connected = client;
    const connectedAt = Date.now();
    client.onclose = () => {
      if (closed || myGeneration !== generation) return;
      connected = undefined;
      controller.abort();
      const stable = Date.now() - connectedAt >= options.reconnect.stableAfterMs;
      const closedReason = new McpError(ErrorCode.ConnectionClosed, 'closed');
      const reason = takeBrokenReason() ?? explainMcpDrop(closedReason, handle, options.connectTimeoutMs);
      scheduleRetry(stable ? 1 : attempt + 1, reason);
    };
    listener.onTools(tools);
    setState({ status: 'connected' });
  };

  const scheduleRetry = (attempt: number, lastError: string): void => {
    const policy = options.reconnect;
    if (attempt > policy.maxAttempts) {
      setState({ status: 'failed', reason: `${lastError}; gave up after ${policy.maxAttempts} reconnect attempts` });
      listener.onTools([]);
      return;
    }
    setState({ status: 'pending', attempt, lastError });
    retry.schedule(() => void connectOnce(attempt), retryDelay(policy, attempt));
  };

  const dropCurrent = async (): Promise<void> => {
    generation += 1;
    connected = undefined;
    retry.cancel();
    attemptController?.abort();
    const previous = current;
    current = undefined;
    if (previous !== undefined) await previous.client.close().catch(() => undefined);
  };

  return {
    name: options.name,
    state: () => state,
    client: () => connected,
    reportBroken(client, reason) {
      if (closed || connected !== client) return;
      brokenReason = reason;
      // Closing runs the client's onclose, which schedules the reconnect.
      void client.close().catch(() => undefined);
    },
    dropReason: (client) => dropReasons.get(client),
    start() {
      if (closed) return;
      void connectOnce(0);
    },
    restart() {
      if (closed) return;
      void dropCurrent().then(() => {
        if (closed) return;
        setState({ status: 'pending' });
        void connectOnce(0);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await dropCurrent();
    },
  };
}
