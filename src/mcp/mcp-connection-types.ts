import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Implementation, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcp-config.js';

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
  /**
   * The largest message a stdio server may send, in bytes (the SDK's buffer; default 10 MiB). A
   * larger one ends the connection (the SDK cannot skip it); the call it answered is told its
   * result was too large, and the server is reconnected.
   */
  readonly maxMessageBytes?: number;
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
  /** Why `client` was dropped by this side (a message over `maxMessageBytes`), if it was. */
  dropReason(client: Client): string | undefined;
  /** Starts connecting; returns at once. */
  start(): void;
  /** Drops the current connection (if any) and connects again, resetting the attempt count. */
  restart(): void;
  close(): Promise<void>;
};
