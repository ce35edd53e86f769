import { defineService } from '../../contract/services.js';

/** A resource an MCP server lists, with the server it belongs to. */
export type McpResourceEntry = {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly mimeType?: string;
  readonly description?: string;
};

/** One part of a read resource: text, or base64 `blob` for binary content. */
export type McpResourcePart =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** A failure written for the model. */
export type McpResourceFailure = { readonly ok: false; readonly message: string };

/**
 * Access to the resources of the session's MCP servers. The MCP manager (`createMcpManager`)
 * implements it; the host registers it under {@link mcpResourcesService}. Failures are
 * `{ok: false, message}` for the model; only an abort of `signal` rejects.
 */
export type McpResourceAccess = {
  listResources(options: { readonly server?: string; readonly signal: AbortSignal }): Promise<
    | {
        readonly ok: true;
        readonly listing: {
          readonly resources: readonly McpResourceEntry[];
          /** Servers that could not be asked, and why. */
          readonly unavailable: readonly { readonly server: string; readonly reason: string }[];
        };
      }
    | McpResourceFailure
  >;
  readResource(options: {
    readonly server: string;
    readonly uri: string;
    readonly signal: AbortSignal;
  }): Promise<{ readonly ok: true; readonly contents: readonly McpResourcePart[] } | McpResourceFailure>;
};

/** The service key ListMcpResourcesTool and ReadMcpResourceTool read the MCP servers through. */
export const mcpResourcesService = defineService<McpResourceAccess>('mcp-resources');

/** What the resource tools answer when the host registered no MCP manager. */
export const NO_MCP_MESSAGE =
  'No MCP servers are available in this session, so there are no resources to list or read.';
