import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Implementation, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors/toolplane-error.js';
import { collectMcpPages } from './collect-mcp-pages.js';
import { describeMcpError } from './describe-mcp-error.js';
import type { McpServerConfig } from './mcp-config.js';
import { createMcpTransport } from './create-mcp-transport.js';
import type { McpTransportHandle } from './create-mcp-transport.js';

/**
 * The state of one server. `pending` is a server still connecting, or reconnecting after it
 * dropped (`attempt` counts reconnect attempts, `lastError` says why it dropped); `failed` gave up
 * and says why; `disabled` was never started (untrusted workspace, turned off).
 */
export type McpServerState =
  | { readonly status: 'pending'; readonly attempt?: number; readonly lastError?: string }
  | { readonly status: 'connected' }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'disabled'; readonly reason: string };

/** Reconnection after a connected server drops: exponential backoff, a bounded number of attempts. */
export type McpReconnectPolicy = {
  /** Attempts before the server is marked failed. Default 5. */
  readonly maxAttempts: number;
  /** Delay before the first attempt, in ms; doubles each attempt. Default 500. */
  readonly initialDelayMs: number;
  /** Upper bound of the delay, in ms. Default 30 000. */
  readonly maxDelayMs: number;
  /**
   * A connection that stays up this long (ms) resets the attempt count; one that drops sooner
   * continues it, so a server that crashes right after each reconnect still gives up. Default 60 000.
   */
  readonly stableAfterMs: number;
};

/** What a connection reports to its owner. */
export type McpConnectionListener = {
  onState(state: McpServerState): void;
  onTools(tools: readonly McpToolDefinition[]): void;
  onWarning(message: string): void;
};

/** Options for {@link createMcpConnection}. */
export type McpConnectionOptions = {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly cwd: string | undefined;
  readonly clientInfo: Implementation;
  /** Time a server has to answer `initialize` (and its first `tools/list`), in ms. */
  readonly connectTimeoutMs: number;
  readonly reconnect: McpReconnectPolicy;
  readonly listener: McpConnectionListener;
};

/** One server's live connection: started once, reconnected on drops, closed once. */
export type McpConnection = {
  readonly name: string;
  state(): McpServerState;
  /** The connected client, or `undefined` while the server is not connected. */
  client(): Client | undefined;
  /**
   * Tells the connection that `client` could not reach its server (a remote server went away,
   * its session expired): it is dropped and reconnected like a server that exited.
   */
  reportBroken(client: Client, reason: string): void;
  /** Starts connecting; returns at once. */
  start(): void;
  /** Drops the current connection (if any) and connects again, resetting the attempt count. */
  restart(): void;
  close(): Promise<void>;
};

/** Why a connection attempt or a live connection ended, in words for people and the model. */
function explain(error: unknown, handle: McpTransportHandle | undefined, timeoutMs: number): string {
  let text: string;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    text = `did not finish connecting within ${timeoutMs} ms`;
  } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    text = 'the server closed the connection';
  } else if ((error instanceof StreamableHTTPError || error instanceof SseError) && error.code !== undefined) {
    text = `HTTP ${error.code}: ${describeError(error)}`;
  } else {
    text = describeMcpError(error);
  }
  const stderr = handle?.stderrTail() ?? '';
  return stderr.length > 0 ? `${text} (stderr: ${stderr.split('\n').slice(-3).join(' | ')})` : text;
}

async function listAllTools(
  client: Client,
  options: { signal: AbortSignal; timeout: number },
): Promise<McpToolDefinition[]> {
  return collectMcpPages('tools/list', async (cursor) => {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    return { items: page.tools, nextCursor: page.nextCursor };
  });
}

/**
 * Creates the connection to one server. A first connection that fails marks the server failed
 * with the reason (no retry; {@link McpConnection.restart} tries again). A connection that drops
 * after it was up is retried with exponential backoff up to the policy's attempts (counted across
 * reconnects that do not stay up for `stableAfterMs`); meanwhile the
 * state is `pending` with the attempt and the reason it dropped. `notifications/tools/list_changed`
 * refetches the tool list; refreshes never overlap.
 */
export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const { listener } = options;
  let state: McpServerState = { status: 'pending' };
  let current: { client: Client; handle: McpTransportHandle } | undefined;
  let connected: Client | undefined;
  let generation = 0;
  let closed = false;
  let attemptController: AbortController | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let brokenReason: string | undefined;

  const setState = (next: McpServerState): void => {
    state = next;
    listener.onState(next);
  };

  const fetchTools = async (client: Client, signal: AbortSignal): Promise<McpToolDefinition[]> => {
    if (client.getServerCapabilities()?.tools === undefined) return [];
    return listAllTools(client, { signal, timeout: options.connectTimeoutMs });
  };

  /** A list_changed handler for one client: refreshes never overlap, and one more runs if asked meanwhile. */
  const listChangedHandler = (client: Client, signal: AbortSignal): (() => void) => {
    let refreshing = false;
    let again = false;
    return () => {
      if (connected !== client) return;
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      void (async () => {
        do {
          again = false;
          // The SDK adds an abort listener to a request's signal and never removes it; on the
          // connection's signal, every refresh would leave one behind for the connection's life.
          const refresh = new AbortController();
          const forward = (): void => refresh.abort(signal.reason);
          signal.addEventListener('abort', forward, { once: true });
          if (signal.aborted) forward();
          try {
            const tools = await fetchTools(client, refresh.signal);
            if (connected === client) listener.onTools(tools);
          } catch (error) {
            if (!signal.aborted)
              listener.onWarning(`could not refresh the tool list after list_changed: ${describeMcpError(error)}`);
          } finally {
            signal.removeEventListener('abort', forward);
          }
        } while (again && !signal.aborted && connected === client);
        refreshing = false;
      })();
    };
  };

  const connectOnce = async (attempt: number): Promise<void> => {
    const myGeneration = ++generation;
    const controller = new AbortController();
    attemptController = controller;
    const handle = createMcpTransport({ config: options.config, baseEnv: options.baseEnv, cwd: options.cwd });
    const client = new Client(options.clientInfo, { capabilities: {} });
    current = { client, handle };
    client.setNotificationHandler(ToolListChangedNotificationSchema, listChangedHandler(client, controller.signal));
    let tools: McpToolDefinition[];
    try {
      await client.connect(handle.transport, { signal: controller.signal, timeout: options.connectTimeoutMs });
      tools = await fetchTools(client, controller.signal);
    } catch (error) {
      if (closed || myGeneration !== generation) return;
      const reason = explain(error, handle, options.connectTimeoutMs);
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
      const reason =
        brokenReason ?? explain(new McpError(ErrorCode.ConnectionClosed, 'closed'), handle, options.connectTimeoutMs);
      brokenReason = undefined;
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
    const delay = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connectOnce(attempt);
    }, delay);
    retryTimer.unref();
  };

  const dropCurrent = async (): Promise<void> => {
    generation += 1;
    connected = undefined;
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
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
