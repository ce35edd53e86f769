import type { McpServerConfig } from './mcp-config.js';

/**
 * Where a server config came from. `project` (`.mcp.json`, `.toolplane/settings.json`) and `local`
 * (`.toolplane/settings.local.json`) live in the workspace and start only when it is trusted.
 */
export type McpConfigScope = 'user' | 'project' | 'local' | 'flag';

/** Scopes from lowest to highest precedence: a later scope's server replaces an earlier one. */
export const MCP_SCOPE_PRECEDENCE: readonly McpConfigScope[] = ['user', 'project', 'local', 'flag'];

const WORKSPACE_SCOPES: ReadonlySet<McpConfigScope> = new Set(['project', 'local']);

/** The servers one file contributes, as the caller loaded them. */
export type McpConfigSource = {
  readonly scope: McpConfigScope;
  readonly file: string;
  readonly servers: ReadonlyMap<string, McpServerConfig>;
};

/** One server to run, with where its config came from. */
export type McpServerEntry = {
  readonly name: string;
  readonly scope: McpConfigScope;
  readonly file: string;
  readonly config: McpServerConfig;
  /** Defined in the workspace: started only when the workspace is trusted. */
  readonly fromWorkspace: boolean;
};

/** A server defined in more than one place, and which definition won. */
export type McpServerOverride = {
  readonly name: string;
  readonly used: { readonly scope: McpConfigScope; readonly file: string };
  readonly ignored: { readonly scope: McpConfigScope; readonly file: string };
};

/** The merged server list. */
export type MergedMcpConfig = {
  /** Sorted by name, so tool order is stable across sessions. */
  readonly servers: readonly McpServerEntry[];
  readonly overrides: readonly McpServerOverride[];
};

/**
 * Merges server configs by scope: `flag` (`--mcp-config`) over `local` over `project` over `user`;
 * within one scope, a later source wins. Servers from workspace scopes are flagged
 * `fromWorkspace`, which the manager uses to keep them stopped in an untrusted workspace.
 */
export function mergeMcpConfigs(sources: readonly McpConfigSource[]): MergedMcpConfig {
  const ordered = [...sources]
    .map((source, index) => ({ source, index }))
    .sort(
      (a, b) =>
        MCP_SCOPE_PRECEDENCE.indexOf(a.source.scope) - MCP_SCOPE_PRECEDENCE.indexOf(b.source.scope) ||
        a.index - b.index,
    );
  const byName = new Map<string, McpServerEntry>();
  const overrides: McpServerOverride[] = [];
  for (const { source } of ordered) {
    for (const [name, config] of source.servers) {
      const previous = byName.get(name);
      if (previous !== undefined) {
        overrides.push({
          name,
          used: { scope: source.scope, file: source.file },
          ignored: { scope: previous.scope, file: previous.file },
        });
      }
      byName.set(name, {
        name,
        scope: source.scope,
        file: source.file,
        config,
        fromWorkspace: WORKSPACE_SCOPES.has(source.scope),
      });
    }
  }
  const servers = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { servers, overrides };
}
