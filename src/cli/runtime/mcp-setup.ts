import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerConfig } from '../../mcp/mcp-config.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { McpConfigSource, McpConfigScope } from '../../mcp/merge-mcp-configs.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { settingsPaths } from '../../settings/settings-paths.js';
import { isInlineJson } from './inline-json.js';

/** Servers the host runs in its own process, by name: they join the `flag` scope. */
export type HostMcpServers = ReadonlyMap<string, McpServerConfig>;

/** What snapshots and diagnostics name as the file of a host's own servers. */
export const HOSTED_SERVERS_FILE = 'the Agent SDK host';

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
  /** `--strict-mcp-config`: only `configFiles` and `hosted`, not the settings' servers or `.mcp.json`. */
  readonly strict?: boolean;
  /** Servers the host runs in its own process (an Agent SDK host's), by name. */
  readonly hosted?: HostMcpServers;
  readonly trusted: boolean;
  /** The record of held settings: an `.mcp.json` or `--mcp-config` file a tool call wrote starts nothing. */
  readonly holdsFile?: string;
  readonly signal: AbortSignal;
  /** Whether the person approved a tool (an allow rule names it or its server), for definition-change warnings. */
  readonly isApproved?: (tool: { readonly name: string; readonly server: string }) => boolean;
}): Promise<McpSetup> {
  const projectFile = join(options.cwd, '.mcp.json');
  // `--strict-mcp-config`: neither the settings' servers nor the project's `.mcp.json`.
  const fromSettings = options.strict === true ? [] : options.settings.mcpServers;
  // Nothing configured anywhere: no MCP code is loaded at all (most sessions; cold start).
  const hosted = options.hosted ?? new Map<string, McpServerConfig>();
  if (
    fromSettings.length === 0 &&
    options.configFiles.length === 0 &&
    hosted.size === 0 &&
    (options.strict === true || !existsSync(projectFile))
  )
    return { manager: undefined, issues: [] };
  const { loadMcpConfigFile } = await import('../../mcp/load-mcp-config-file.js');
  const { parseMcpServers, formatMcpConfigIssue } = await import('../../mcp/mcp-config.js');
  const issues: string[] = [];
  const sources: McpConfigSource[] = [];
  for (const entry of fromSettings) {
    const file = entry.file ?? `${entry.source} settings`;
    const parsed = parseMcpServers({ servers: Object.fromEntries(entry.servers), file, env: options.env });
    issues.push(...parsed.issues.map(formatMcpConfigIssue));
    sources.push({ scope: SCOPE_OF_SOURCE[entry.source] ?? 'flag', file, servers: parsed.servers });
  }
  const heldSkipped = async (file: string): Promise<boolean> => {
    if (options.holdsFile === undefined) return false;
    const { mcpConfigHold } = await import('./held-config-files.js');
    const { record } = await mcpConfigHold({ file, holdsFile: options.holdsFile, signal: options.signal });
    if (record === undefined) return false;
    issues.push(
      `${file}: it was changed by a tool call and is held until a person confirms it: its servers are not started (the terminal UI asks to confirm it when it next starts in this folder)`,
    );
    return true;
  };
  if (options.strict !== true && !(await heldSkipped(projectFile))) {
    const project = await loadMcpConfigFile({
      file: projectFile,
      env: options.env,
      optional: true,
      signal: options.signal,
    });
    issues.push(...project.issues.map(formatMcpConfigIssue));
    sources.push({ scope: 'project', file: projectFile, servers: project.servers });
    if (!options.trusted && project.servers.size > 0) {
      const { howToTrust } = await import('../../settings/resolve-project-trust.js');
      issues.push(
        `${projectFile}: the project folder is not trusted: its MCP servers (${[...project.servers.keys()].join(', ')}) are not started; ${howToTrust(options.cwd)}`,
      );
    }
  }
  for (const [index, file] of options.configFiles.entries()) {
    if (isInlineJson(file)) {
      sources.push(await inlineMcpConfig(file, `--mcp-config #${index + 1} (inline JSON)`, options.env, issues));
      continue;
    }
    if (await heldSkipped(file)) continue;
    const flagged = await loadMcpConfigFile({ file, env: options.env, optional: false, signal: options.signal });
    issues.push(...flagged.issues.map(formatMcpConfigIssue));
    sources.push({ scope: 'flag', file, servers: flagged.servers });
  }
  if (hosted.size > 0) sources.push({ scope: 'flag', file: HOSTED_SERVERS_FILE, servers: hosted });
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

/**
 * A session's MCP: {@link setUpMcp} with the session's trust and hold record, its issues and the
 * manager's later events reported through `warn`. Project servers start only in a trusted folder
 * (`unknown` is not trust), and never from a configuration file a tool call wrote.
 */
export async function startSessionMcp(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly settings: LoadedSettings;
  readonly configFiles: readonly string[];
  readonly strict: boolean;
  readonly hosted?: HostMcpServers;
  readonly signal: AbortSignal;
  readonly warn: (line: string) => void;
}): Promise<McpManager | undefined> {
  const { settings, warn } = options;
  const allowRules = new Set(settings.rules.filter((entry) => entry.behavior === 'allow').map((entry) => entry.rule));
  const setup = await setUpMcp({
    cwd: options.cwd,
    env: options.env,
    settings,
    configFiles: options.configFiles,
    strict: options.strict,
    ...(options.hosted ? { hosted: options.hosted } : {}),
    trusted: settings.projectTrust === 'trusted',
    signal: options.signal,
    isApproved: ({ name, server }) =>
      allowRules.has(name) || allowRules.has(`mcp__${server}`) || allowRules.has(`mcp__${server}__*`),
    holdsFile: settingsPaths(options).heldSettings,
  });
  for (const issue of setup.issues) warn(`mcp: ${issue}`);
  setup.manager?.subscribe((event) => {
    if (event.type === 'tool-definition-change' && event.approved)
      warn(`mcp: the definition of ${event.name} (approved earlier) changed on server ${event.server}`);
    else if (event.type === 'tool-name-collision') warn(`mcp: tool name collision: ${JSON.stringify(event.collision)}`);
    else if (event.type === 'server-warning') warn(`mcp: ${event.server}: ${event.message}`);
  });
  return setup.manager;
}

/** An `--mcp-config` value given as JSON text (`{"mcpServers": {...}}`), as the Agent SDK passes it. */
async function inlineMcpConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  issues: string[],
): Promise<McpConfigSource> {
  const { parseMcpServers, formatMcpConfigIssue } = await import('../../mcp/mcp-config.js');
  const empty: McpConfigSource = { scope: 'flag', file, servers: new Map() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    issues.push(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    return empty;
  }
  const servers =
    typeof value === 'object' && value !== null ? (value as { mcpServers?: unknown }).mcpServers : undefined;
  const parsed = parseMcpServers({ servers, file, env });
  issues.push(...parsed.issues.map(formatMcpConfigIssue));
  return { scope: 'flag', file, servers: parsed.servers };
}
