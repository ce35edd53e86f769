import { dirname } from 'node:path';
import type { ModelProvider } from '../../contract/provider.js';
import { SANDBOX, type Sandbox } from '../../contract/sandbox.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { AnyTool } from '../../contract/tool.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { PermissionEngine } from '../../permissions/permission-engine.js';
import { initShellParser } from '../../permissions/bash-parser.js';
import {
  buildSystemPrompt,
  configDirectory,
  createAgentSession,
  createSessionStore,
  GENERAL_PURPOSE_AGENT,
  loadProjectInstructions,
  type AgentSession,
} from '../../session/index.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { READ_DENIED_PATH } from '../../tools/fs-helpers/read-denied-path.js';
import { mcpResourcesService } from '../../tools/mcp-resources/mcp-resource-service.js';
import {
  createStructuredOutputTool,
  STRUCTURED_OUTPUT_TOOL_NAME,
} from '../../tools/structured-output/structured-output-tool.js';
import { createModelPromptApplier, WEB_FETCH_PROMPT_APPLIER } from '../../tools/web-fetch/prompt-applier.js';
import { privateHostsFromRules } from '../../tools/web-fetch/private-hosts-from-rules.js';
import { webSearchService } from '../../tools/web-search/web-search-service.js';
import type { RunArguments } from '../args.js';
import { createBuiltinTools } from './builtin-tools.js';
import { afterFirstResponse } from './after-first-response.js';
import { chooseProvider, createProvider } from './choose-provider.js';
import { watchedConfigFiles, type HeldConfigFile } from './held-config-files.js';
import { loadPermissions } from './load-permissions.js';
import { startSessionMcp } from './mcp-setup.js';
import { parseJsonSchemaArgument } from './parse-json-schema-argument.js';
import { setUpSandbox } from './sandbox-setup.js';
import { createSettingsGuard, type SettingsGuard } from './settings-guard.js';

/** How a session is set up. */
export type RuntimeOptions = {
  readonly args: RunArguments;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly interactive: boolean;
  /** Warnings and notices for people (stderr in headless runs). */
  readonly warn: (line: string) => void;
  /** Interactive runs: asks the person whether to trust this project folder (once; remembered). */
  readonly askTrust?: (folder: string) => Promise<boolean>;
  /** Interactive runs: asks the person to confirm a settings file a tool call wrote (held until then). */
  readonly askConfirmHeld?: (held: HeldConfigFile) => Promise<boolean>;
  readonly managedSettingsFile?: string;
  readonly signal?: AbortSignal;
  /** Tools added to the built-ins by a host that embeds the runtime (tests register theirs here). */
  readonly extraTools?: readonly AnyTool[];
};

/** The CLI's runtime: what it loaded and started, and the agent session it drives. */
export type Runtime = {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly settings: LoadedSettings;
  readonly permissions: PermissionEngine;
  readonly mcp: McpManager | undefined;
  readonly session: AgentSession;
};

const MAX_STRUCTURED_OUTPUT_REMINDERS = 3;

/**
 * The composition root of the CLI: arguments, then settings and the permission engine, the
 * provider, the tools (built-in and MCP), then the agent session that owns the rest. Throws `SETTINGS_INVALID` for a settings file
 * that cannot be read (a deny rule must never be lost silently).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { args, cwd, env, homeDir } = options;
  const signal = options.signal ?? new AbortController().signal;
  // Checked before anything starts: a bad argument must not leave MCP servers or a transcript behind.
  const jsonSchemaTool: AnyTool | undefined =
    args.jsonSchema === undefined ? undefined : createStructuredOutputTool(parseJsonSchemaArgument(args.jsonSchema));
  const choice = chooseProvider({ provider: args.provider, baseUrl: args.baseUrl, script: args.script, env });
  // Start the work that does not depend on settings while they load.
  const providerPromise = createProvider(choice, { script: args.script, env, model: args.model });
  const instructionsPromise = loadProjectInstructions(cwd, { signal });

  // The settings watch starts with the session, after the permissions it reports saved rules to.
  const guardRef: { current?: SettingsGuard } = {};
  const { settings, engine, permissions, modes } = await loadPermissions({
    ...options,
    signal,
    onRuleSaved: (saved) => guardRef.current?.recordSavedRule(saved) ?? Promise.resolve(undefined),
  });

  const configDir = configDirectory(env as NodeJS.ProcessEnv, homeDir);
  const sessions = createSessionStore({ configDir, cwd });
  let resume: string | undefined;
  if (args.resume || args.continue) {
    resume = args.resume ?? (await sessions.list())[0]?.id;
    if (!resume) throw new ToolplaneError('SESSION_CORRUPT', 'There is no earlier session in this folder to continue.');
  }
  const sessionRef: { current?: AgentSession } = {};
  const settingsGuard = await createSettingsGuard({
    files: watchedConfigFiles({ cwd, env, homeDir, settingsFlag: args.settings, mcpConfigFiles: args.mcpConfig }),
    cwd,
    env,
    homeDir,
    sessionId: () => sessionRef.current?.id() ?? '',
    warn: options.warn,
    signal,
  });
  guardRef.current = settingsGuard;

  const provider = withShellParserAfterFirstRequest(await providerPromise, options.warn);
  const model = args.model ?? provider.defaultModel;
  const services = await hostServices({ engine, provider, model, choice, env });
  const mcp = await startSessionMcp({
    cwd,
    env,
    homeDir,
    settings,
    configFiles: args.mcpConfig,
    signal,
    warn: options.warn,
  });
  if (mcp) services.set(mcpResourcesService, mcp);
  const agentTypes = [GENERAL_PURPOSE_AGENT];
  const builtins = createBuiltinTools({
    env,
    provider,
    interactive: options.interactive,
    hasMcp: mcp !== undefined,
    agentTypes,
    allowPrivateHosts: privateHostsFromRules(settings.rules),
  });
  const instructions = await instructionsPromise;
  const system = buildSystemPrompt({
    cwd,
    instructions,
    ...(args.appendSystemPrompt ? { append: args.appendSystemPrompt } : {}),
    additionalDirectories: args.addDir,
  });
  const sandboxRef: { current?: Sandbox } = {};
  const session = await createAgentSession({
    provider,
    model,
    system,
    cwd,
    sessions,
    ...(resume !== undefined ? { resume } : {}),
    tools: [...builtins, ...(options.extraTools ?? []), ...(jsonSchemaTool ? [jsonSchemaTool] : [])],
    ...(mcp ? { mcp } : {}),
    permissions,
    modes,
    hooks: settings.hooks,
    env,
    homeDir,
    services,
    agentTypes,
    ...(jsonSchemaTool
      ? { requiredTool: { name: STRUCTURED_OUTPUT_TOOL_NAME, maxReminders: MAX_STRUCTURED_OUTPUT_REMINDERS } }
      : {}),
    ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
    afterTools: async (turnSignal) => {
      const lines = await settingsGuard.afterTools(turnSignal);
      // In the terminal UI a turn's notices are events; elsewhere (and at close) they go to stderr.
      if (options.interactive && turnSignal) return lines;
      for (const line of lines) options.warn(`toolplane: ${line}`);
      return [];
    },
    warn: options.warn,
    signal,
    onClose: async () => {
      // After the tasks: a background command may still hold a stand-in for a protected path.
      await sandboxRef.current?.dispose?.();
      await mcp?.close();
    },
  });
  sessionRef.current = session;
  sandboxRef.current = attachSandbox({
    settings,
    args,
    cwd,
    homeDir,
    configDir,
    session,
    env,
    engine,
    services,
    warn: options.warn,
  });
  return { provider, model, settings, permissions, mcp, session };
}

/**
 * `provider`, with the shell parser (WebAssembly) loading once the first request is sent, while the
 * model answers; a Bash permission decision that comes before it is ready waits for it.
 */
function withShellParserAfterFirstRequest(provider: ModelProvider, warn: (line: string) => void): ModelProvider {
  return afterFirstResponse(provider, () => {
    initShellParser().catch((error: unknown) =>
      warn(`The shell parser failed to load; Bash calls will ask: ${String(error)}`),
    );
  });
}

/** The session's OS sandbox from the settings, registered as a service; `undefined` where none runs. */
function attachSandbox(options: {
  readonly settings: LoadedSettings;
  readonly args: RunArguments;
  readonly cwd: string;
  readonly homeDir: string;
  readonly configDir: string;
  readonly session: AgentSession;
  readonly env: RuntimeOptions['env'];
  readonly engine: PermissionEngine;
  readonly services: ServiceRegistry;
  readonly warn: (line: string) => void;
}): Sandbox | undefined {
  const { settings, args, engine, services } = options;
  const { sandbox, tmpDir } = setUpSandbox({
    settings: settings.sandbox,
    rules: settings.rules,
    cwd: options.cwd,
    additionalDirectories: [...settings.additionalDirectories.map((directory) => directory.path), ...args.addDir],
    homeDir: options.homeDir,
    configDir: options.configDir,
    sessionFolder: dirname(options.session.transcript().resultsDirectory),
    hooks: settings.hooks,
    mcpServers: settings.mcpServers,
    env: options.env,
    warn: options.warn,
  });
  if (!sandbox) return undefined;
  services.set(SANDBOX, sandbox);
  // The private /tmp of sandboxed commands is a real folder: Read can open what they leave there.
  engine.addDirectory(tmpDir);
  return sandbox;
}

/** The services only a host can give: denied paths for Read, WebFetch's model, Anthropic's web search. */
async function hostServices(options: {
  readonly engine: PermissionEngine;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly choice: ReturnType<typeof chooseProvider>;
  readonly env: RuntimeOptions['env'];
}): Promise<ServiceRegistry> {
  const { engine, provider, model, choice, env } = options;
  const services = createServices()
    .set(READ_DENIED_PATH, (path: string) => engine.pathDenial(path, 'read') !== undefined)
    .set(WEB_FETCH_PROMPT_APPLIER, createModelPromptApplier({ provider, model }));
  if (choice.name === 'anthropic' && provider.capabilities.webSearch) {
    const { createAnthropicWebSearch } = await import('../../providers/anthropic/anthropic-web-search.js');
    const backend = createAnthropicWebSearch({
      env,
      ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
      defaultModel: model,
    });
    services.set(webSearchService, { search: async (request, searchSignal) => backend.search(request, searchSignal) });
  }
  return services;
}
