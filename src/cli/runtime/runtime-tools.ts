import type { ModelProvider } from '../../contract/provider.js';
import type { ServiceRegistry } from '../../contract/services.js';
import type { PermissionEngine } from '../../permissions/permission-engine.js';
import type { AnyTool } from '../../contract/tool.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import { GENERAL_PURPOSE_AGENT, type SubagentType } from '../../session/index.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { mcpResourcesService } from '../../tools/mcp-resources/mcp-resource-service.js';
import { privateHostsFromRules } from '../../tools/web-fetch/private-hosts-from-rules.js';
import { hasAgentFolders } from '../agents/agent-folders.js';
import { createBuiltinTools } from './builtin-tools.js';
import type { ProviderChoice } from './choose-provider.js';
import { hostServices } from './host-services.js';
import type { RuntimeHost } from './create-runtime.js';
import { startSessionMcp } from './mcp-setup.js';

/** The tools of a CLI session and what they run on. */
export type RuntimeTools = {
  /** The built-ins, then the host's own. */
  readonly tools: readonly AnyTool[];
  readonly services: ServiceRegistry;
  readonly mcp: McpManager | undefined;
  readonly agentTypes: readonly SubagentType[];
};

/**
 * The tools step of the composition root: the host's services (denied paths for Read, WebFetch's
 * model, Anthropic's web search), the MCP servers (connecting in the background), and the
 * built-in tools configured for them.
 */
export async function createRuntimeTools(options: {
  readonly cwd: string;
  /** The process's environment: the provider's services (web search) take their key and base URL from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What the session runs sees (Bash, MCP servers): `env` with the settings' `env` over it. */
  readonly toolEnv: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly interactive: boolean;
  readonly settings: LoadedSettings;
  readonly engine: PermissionEngine;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly choice: ProviderChoice;
  readonly mcpConfigFiles: readonly string[];
  /** `--tools`: the built-in tools the session has (undefined: all). */
  readonly builtinTools?: readonly string[] | undefined;
  /** `--strict-mcp-config`: only the servers of `mcpConfigFiles` (and the host's). */
  readonly strictMcpConfig?: boolean;
  readonly extraTools: readonly AnyTool[];
  readonly warn: (line: string) => void;
  readonly signal: AbortSignal;
  /** The retry budget, for the SDK's own retries of requests that do not stream (web search). */
  readonly maxRetries: number | undefined;
  /** A driving program's own MCP servers and subagent types. */
  readonly host?: Pick<RuntimeHost, 'mcpServers' | 'agentTypes'>;
}): Promise<RuntimeTools> {
  const { settings, provider } = options;
  const services = await hostServices(options);
  const mcp = await startSessionMcp({
    cwd: options.cwd,
    env: options.toolEnv,
    homeDir: options.homeDir,
    settings,
    configFiles: options.mcpConfigFiles,
    strict: options.strictMcpConfig === true,
    ...(options.host?.mcpServers ? { hosted: options.host.mcpServers } : {}),
    signal: options.signal,
    warn: options.warn,
  });
  if (mcp) services.set(mcpResourcesService, mcp);
  const agentTypes = await chosenAgentTypes(options);
  const builtins = createBuiltinTools({
    env: options.toolEnv,
    provider,
    interactive: options.interactive,
    hasMcp: mcp !== undefined,
    agentTypes,
    allowPrivateHosts: privateHostsFromRules(settings.rules),
  });
  return { tools: [...chosenBuiltins(builtins, options), ...options.extraTools], services, mcp, agentTypes };
}

/**
 * The subagent types: a host's, then the agent files' (the project's in a trusted folder, then the
 * person's), then the built-in; the first of a name wins, so each may replace the ones after it.
 */
async function chosenAgentTypes(options: {
  readonly cwd: string;
  readonly homeDir: string;
  readonly settings: LoadedSettings;
  readonly host?: Pick<RuntimeHost, 'agentTypes'>;
  readonly warn: (line: string) => void;
}): Promise<readonly SubagentType[]> {
  let files: readonly SubagentType[] = [];
  if (hasAgentFolders(options)) {
    const { loadAgentFiles } = await import('../agents/load-agent-files.js');
    const found = loadAgentFiles({
      cwd: options.cwd,
      homeDir: options.homeDir,
      projectTrusted: options.settings.projectTrust === 'trusted',
    });
    for (const problem of found.problems) options.warn(`toolplane: ${problem}`);
    files = found.agents;
  }
  // The general-purpose type (or what replaced it) comes first: it is the one a call naming none gets.
  const chosen = new Map<string, SubagentType>([[GENERAL_PURPOSE_AGENT.name, GENERAL_PURPOSE_AGENT]]);
  for (const type of files) chosen.set(type.name, type);
  for (const type of options.host?.agentTypes ?? []) chosen.set(type.name, type);
  return [...chosen.values()];
}

/** How MCP servers' tools and resources reach the model: kept whatever `--tools` names. */
const MCP_ACCESS = new Set(['ToolSearch', 'ListMcpResourcesTool', 'ReadMcpResourceTool']);

/** The built-ins `--tools` names (all without it); a name no built-in has is told, not ignored silently. */
function chosenBuiltins(
  builtins: readonly AnyTool[],
  options: { readonly builtinTools?: readonly string[] | undefined; readonly warn: (line: string) => void },
): readonly AnyTool[] {
  const wanted = options.builtinTools;
  if (wanted === undefined) return builtins;
  const names = new Set(builtins.map((tool) => tool.name));
  const unknown = wanted.filter((name) => !names.has(name));
  if (unknown.length > 0) options.warn(`toolplane: --tools names no built-in tool ${unknown.join(', ')}; left out`);
  return builtins.filter((tool) => wanted.includes(tool.name) || MCP_ACCESS.has(tool.name));
}
