import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../contract/tool.js';
import type { McpConfigScope, McpServerEntry } from './merge-mcp-configs.js';
import type { McpReconnectPolicy, McpServerState } from './mcp-connection-types.js';
import type { McpToolNameCollision } from './mcp-tool-name.js';

/** A server as the UI and ToolSearch's answer show it. */
export type McpServerSnapshot = {
  readonly name: string;
  readonly scope: McpConfigScope;
  readonly file: string;
  readonly transport: 'stdio' | 'http' | 'sse' | 'sdk';
  readonly state: McpServerState;
  /** Model-facing names of the server's tools currently in the pool. */
  readonly toolNames: readonly string[];
  /** The name and version the server gave when it connected (untrusted text). */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The usage instructions the server gave when it connected (untrusted text, uncapped). */
  readonly instructions?: string;
};

/** An MCP tool's identity, for approval lookups. */
export type McpToolIdentity = { readonly name: string; readonly server: string; readonly tool: string };

/** What the manager reports. Listeners run synchronously; a throwing listener is ignored. */
export type McpManagerEvent =
  | { readonly type: 'server-state-change'; readonly server: string; readonly state: McpServerState }
  /**
   * The MCP tools changed because of `server` (it connected, failed, or sent `list_changed`);
   * `tools` is every server's tools now, as `tools()` returns them.
   */
  | { readonly type: 'tools-change'; readonly server: string; readonly tools: readonly AnyTool[] }
  /**
   * A tool's definition (description, schema, annotations) differs from when it was first seen
   * (or from `knownFingerprints`). `approved` says whether the host had approved it: such a change
   * deserves a warning, since the person approved something else.
   */
  | {
      readonly type: 'tool-definition-change';
      readonly server: string;
      readonly tool: string;
      readonly name: string;
      readonly approved: boolean;
      readonly previousFingerprint: string;
      readonly fingerprint: string;
    }
  /** Two tools sanitized to the same name: the later one was renamed (see `assignMcpToolNames`). */
  | { readonly type: 'tool-name-collision'; readonly collision: McpToolNameCollision }
  /** A server problem that changes no state (a duplicated tool, a failed tool-list refresh). */
  | { readonly type: 'server-warning'; readonly server: string; readonly message: string };

/** Options for `createMcpManager`. */
export type McpManagerOptions = {
  /** The merged servers (see `mergeMcpConfigs`). */
  readonly servers: readonly McpServerEntry[];
  /** Whether the workspace is trusted; when not, servers from project and local scopes stay disabled. */
  readonly trusted: boolean;
  /** Server names the person turned off; listed as disabled. */
  readonly disabledServers?: readonly string[];
  /** The host's environment, which stdio servers take their safe base from. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /** The folder stdio servers start in when their config names none (the session's working folder). */
  readonly cwd: string;
  readonly clientInfo?: Implementation;
  /** Time a server has to connect and list its tools, in ms. Default 30 000. */
  readonly connectTimeoutMs?: number;
  /** Default time limit of one tool call without progress, in ms; a server's `timeout` wins. Default 600 000. */
  readonly callTimeoutMs?: number;
  readonly reconnect?: Partial<McpReconnectPolicy>;
  /**
   * The largest message a stdio server may send, in bytes. Default 10 MiB (the SDK's buffer). A
   * call whose answer is larger gets an error result saying so; the server is reconnected.
   */
  readonly maxMessageBytes?: number;
  /** Longest tool description, in characters. Default 2 048. */
  readonly maxDescriptionChars?: number;
  /** Whether the person approved a tool (an allow rule, a saved approval); used for definition-change warnings. */
  readonly isApproved?: (tool: McpToolIdentity) => boolean;
  /** Fingerprints (see `fingerprintMcpTool`) stored with earlier approvals, by model-facing name. */
  readonly knownFingerprints?: ReadonlyMap<string, string>;
};

/** A resource a server lists. */
export type McpResourceSummary = {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly mimeType?: string;
  readonly description?: string;
};
