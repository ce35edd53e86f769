import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { McpConfigSource, McpConfigScope } from '../../mcp/merge-mcp-configs.js';
import type { LoadedSettings } from '../../settings/load-settings.js';

/** Problems found in MCP configuration, reported on stderr (a bad server never stops the run). */
export type McpSetup = { readonly manager: McpManager | undefined; readonly issues: readonly string[] };

const SCOPE_OF_SOURCE: Record<string, McpConfigScope> = {
  userSettings: 'user',
  projectSettings: 'project',
  localSettings: 'local',
  cli: 'flag',
  managed: 'flag',
  session: 'flag',
};

/**
 * Collects MCP servers from settings (`mcpServers`), the project's `.mcp.json` and every
 * `--mcp-config FILE`, and starts connecting them in the background. The MCP SDK is loaded only
 * when at least one server is configured.
 */
export async function setUpMcp(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly settings: LoadedSettings;
  readonly configFiles: readonly string[];
  readonly trusted: boolean;
  readonly signal: AbortSignal;
  /** Whether the person approved a tool (an allow rule names it or its server), for definition-change warnings. */
  readonly isApproved?: (tool: { readonly name: string; readonly server: string }) => boolean;
}): Promise<McpSetup> {
  const projectFile = join(options.cwd, '.mcp.json');
  // Nothing configured anywhere: no MCP code is loaded at all (most sessions; cold start).
  if (options.settings.mcpServers.length === 0 && options.configFiles.length === 0 && !existsSync(projectFile)) return { manager: undefined, issues: [] };
  const { loadMcpConfigFile } = await import('../../mcp/load-mcp-config-file.js');
  const { parseMcpServers, formatMcpConfigIssue } = await import('../../mcp/mcp-config.js');
  const issues: string[] = [];
  const sources: McpConfigSource[] = [];
  for (const fromSettings of options.settings.mcpServers) {
    const file = fromSettings.file ?? `${fromSettings.source} settings`;
    const parsed = parseMcpServers({ servers: Object.fromEntries(fromSettings.servers), file, env: options.env });
    issues.push(...parsed.issues.map(formatMcpConfigIssue));
    sources.push({ scope: SCOPE_OF_SOURCE[fromSettings.source] ?? 'flag', file, servers: parsed.servers });
  }
  const project = await loadMcpConfigFile({ file: projectFile, env: options.env, optional: true, signal: options.signal });
  issues.push(...project.issues.map(formatMcpConfigIssue));
  sources.push({ scope: 'project', file: projectFile, servers: project.servers });
  if (!options.trusted && project.servers.size > 0) {
    const { howToTrust } = await import('../../settings/resolve-project-trust.js');
    issues.push(`${projectFile}: the project folder is not trusted: its MCP servers (${[...project.servers.keys()].join(', ')}) are not started; ${howToTrust(options.cwd)}`);
  }
  for (const file of options.configFiles) {
    const flagged = await loadMcpConfigFile({ file, env: options.env, optional: false, signal: options.signal });
    issues.push(...flagged.issues.map(formatMcpConfigIssue));
    sources.push({ scope: 'flag', file, servers: flagged.servers });
  }
  if (sources.every((source) => source.servers.size === 0)) return { manager: undefined, issues };
  const { mergeMcpConfigs } = await import('../../mcp/merge-mcp-configs.js');
  const { createMcpManager } = await import('../../mcp/mcp-manager.js');
  const merged = mergeMcpConfigs(sources);
  const manager = createMcpManager({
    servers: merged.servers,
    trusted: options.trusted,
    baseEnv: options.env,
    cwd: options.cwd,
    ...(options.isApproved ? { isApproved: options.isApproved } : {}),
  });
  return { manager, issues };
}
