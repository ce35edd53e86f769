import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ServiceRegistry } from '../../contract/services.js';
import type { ModelProvider } from '../../contract/provider.js';
import { SANDBOX, type Sandbox } from '../../contract/sandbox.js';
import { createPriceTable, type PriceTable } from '../../providers/index.js';
import { startTemporarySweep } from './temporary-sweep.js';
import type { AnyTool } from '../../contract/tool.js';
import { loadTelemetry } from '../telemetry/load-telemetry.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { PermissionRuleEntry } from '../../contract/permission.js';
import type { PermissionEngine } from '../../permissions/permission-engine.js';
import { initShellParser } from '../../permissions/bash-parser.js';
import {
  configDirectory,
  createAgentSession,
  createSessionStore,
  findSessionToResume,
  loadSessionPrompt,
  checkStructuredOutputSchema,
  offersToolSearch,
  type AfterToolsReport,
  type AgentSession,
  type AgentSessionOptions,
  type SubagentType,
  type FunctionHook,
  type HookRunEvent,
} from '../../session/index.js';
import type { HostMcpServers } from './mcp-setup.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { JSON_SCHEMA_NEEDS_PRINT, type RunArguments } from '../args.js';
import { chooseProvider } from './choose-provider.js';
import { startSettingsAndProvider } from './start-provider.js';
import { afterFirstResponse } from './after-first-response.js';
import { watchedConfigFiles, type HeldConfigFile } from './held-config-files.js';
import { parseJsonSchemaArgument } from './parse-json-schema-argument.js';
import { createRuntimeTools } from './runtime-tools.js';
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
  /**
   * Interactive runs: asks the person whether to trust this project folder. `trusted` and
   * `untrusted` are remembered; `not-now` leaves it untrusted for this run only.
   */
  readonly askTrust?: (folder: string) => Promise<'trusted' | 'untrusted' | 'not-now'>;
  /** Interactive runs: asks the person to confirm a settings file a tool call wrote (held until then). */
  readonly askConfirmHeld?: (held: HeldConfigFile) => Promise<boolean>;
  readonly managedSettingsFile?: string;
  readonly signal?: AbortSignal;
  /** Tools added to the built-ins by a host that embeds the runtime (tests register theirs here). */
  readonly extraTools?: readonly AnyTool[];
  /** What a program driving the command brings of its own (an Agent SDK host's hooks, servers, agents). */
  readonly host?: RuntimeHost;
  /** Sees each hook as it starts and ends (stream-json's `--include-hook-events`). */
  readonly onHookRun?: (event: HookRunEvent) => void;
};

/**
 * A driving program's own parts. They join the session's: its hooks run in the same hook plane as
 * settings hooks, its servers' tools pass the same gate chain, its agents are subagent types.
 */
export type RuntimeHost = {
  readonly functionHooks?: readonly FunctionHook[];
  readonly mcpServers?: HostMcpServers;
  readonly agentTypes?: readonly SubagentType[];
};

/** The CLI's runtime: what it loaded and started, and the agent session it drives. */
export type Runtime = {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly settings: LoadedSettings;
  readonly permissions: PermissionEngine;
  /** Rules a person chose in a dialog since the start, each with its file (`/permissions` lists them). */
  readonly rememberedRules: readonly PermissionRuleEntry[];
  readonly mcp: McpManager | undefined;
  readonly session: AgentSession;
  /** What each model costs: the list prices under the settings' `modelPrices`. */
  readonly prices: PriceTable;
  /** The subagent types the session offers (built-in, settings', the host's). */
  readonly agentTypes: readonly SubagentType[];
  /** The watch over the session's settings files: a file toolplane writes for the person is recorded here. */
  readonly settingsGuard: SettingsGuard;
};

/**
 * The composition root of the CLI: arguments, then settings and the permission engine, the
 * provider, the tools (built-in and MCP), then the agent session that owns the rest. Throws
 * `SETTINGS_INVALID` for a settings file that cannot be read (a deny rule must never be lost silently).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { args, cwd, env, homeDir } = options;
  const signal = options.signal ?? new AbortController().signal;
  // Checked before anything starts: a bad argument must not leave MCP servers or a transcript behind.
  // Structured output is for non-interactive runs: the terminal UI never offers StructuredOutput.
  if (args.jsonSchema !== undefined && options.interactive)
    throw new ToolplaneError('SETTINGS_INVALID', JSON_SCHEMA_NEEDS_PRINT);
  const jsonSchema = args.jsonSchema === undefined ? undefined : parseJsonSchemaArgument(args.jsonSchema);
  if (jsonSchema) checkStructuredOutputSchema(jsonSchema);
  const choice = chooseProvider({ provider: args.provider, baseUrl: args.baseUrl, script: args.script, env });
  // The settings load while the work that does not depend on them starts.
  const started = startSettingsAndProvider({ ...options, signal }, choice);

  // The settings watch starts with the session, after the permissions it reports saved rules to.
  const { settings, engine, permissions, modes, remembered: rememberedRules } = await started.permissions;
  const toolEnv = withSettingsEnv(env, settings);
  const configDir = configDirectory(env, homeDir);
  const { sessions, discard } = openSessionStore(args, configDir, cwd);
  const resume = await findSessionToResume(sessions, { resume: args.resume, continueLatest: args.continue });
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
  started.guard.current = settingsGuard;

  const provider = withShellParserAfterFirstRequest(await started.provider, options.warn);
  const model = args.model ?? provider.defaultModel;
  const prices = pricesFor(settings, args, model);
  const { maxRetries } = await started.requests;
  const { tools, services, mcp, agentTypes } = await createRuntimeTools({
    ...options,
    toolEnv,
    signal,
    maxRetries,
    settings,
    engine,
    provider,
    model,
    choice,
    mcpConfigFiles: args.mcpConfig,
    strictMcpConfig: args.strictMcpConfig,
    builtinTools: args.tools,
    extraTools: options.extraTools ?? [],
    ...(options.host ? { host: options.host } : {}),
  });
  const endJournal = await startTemporarySweep({
    configDir,
    sessionsFolder: sessions.folder,
    cwd,
    services,
    warn: options.warn,
  });
  const { system, instructionFiles } = await systemPromptOf(args, {
    cwd,
    toolSearch: offersToolSearch(tools, mcp),
    signal,
  });
  const sandboxRef: { current?: Sandbox } = {};
  const telemetry = await loadTelemetry({ env, settingsEnv: settings.telemetryEnv, warn: options.warn });
  const session = await createAgentSession({
    provider,
    model,
    system,
    instructionFiles,
    cwd,
    env: toolEnv,
    homeDir,
    sessions,
    ...(resume !== undefined ? { resume, fork: args.forkSession } : {}),
    ...(args.sessionId !== undefined ? { sessionId: args.sessionId } : {}),
    tools,
    ...(mcp ? { mcp } : {}),
    permissions,
    modes,
    hooks: settings.hooks,
    ...(options.host?.functionHooks ? { functionHooks: options.host.functionHooks } : {}),
    ...(options.onHookRun ? { onHookRun: options.onHookRun } : {}),
    services,
    agentTypes,
    ...(jsonSchema ? { structuredOutput: { schema: jsonSchema } } : {}),
    ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
    costs: costsOf(prices, args),
    afterTools: settingsNotices(settingsGuard, options),
    warn: options.warn,
    signal,
    ...(telemetry ? { observer: telemetry.observer } : {}),
    onClose: async () => {
      // After the tasks: a background command may still hold a stand-in for a protected path.
      await sandboxRef.current?.dispose?.();
      await mcp?.close();
      await endJournal();
      await discard();
      // Last: what the session's close did is part of what is exported.
      await telemetry?.shutdown();
    },
  }).catch(async (error: unknown) => {
    await telemetry?.shutdown();
    throw error;
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
  return { provider, model, settings, permissions, rememberedRules, mcp, session, prices, agentTypes, settingsGuard };
}

/**
 * The session's system prompt, and the instruction files it holds. `--system-prompt` replaces
 * toolplane's prompt (and the project's instructions); an append still follows it.
 */
async function systemPromptOf(
  args: RunArguments,
  where: { readonly cwd: string; readonly toolSearch: boolean; readonly signal: AbortSignal | undefined },
): Promise<{ readonly system: string; readonly instructionFiles: readonly string[] }> {
  if (args.systemPrompt !== undefined) {
    const parts = [args.systemPrompt, args.appendSystemPrompt].filter((part) => part !== undefined && part !== '');
    return { system: parts.join('\n\n'), instructionFiles: [] };
  }
  return loadSessionPrompt({
    cwd: where.cwd,
    ...(args.appendSystemPrompt ? { append: args.appendSystemPrompt } : {}),
    additionalDirectories: args.addDir,
    toolSearch: where.toolSearch,
    ...(where.signal ? { signal: where.signal } : {}),
  });
}

/** The price table; a budget that could not be counted (the model has no price) is refused before anything starts. */
function pricesFor(settings: LoadedSettings, args: RunArguments, model: string): PriceTable {
  const prices = createPriceTable(settings.modelPrices);
  if (args.maxBudgetUsd !== undefined && prices.priceOf(model) === undefined)
    throw new ToolplaneError(
      'SETTINGS_INVALID',
      `--max-budget-usd cannot cap ${model}: it has no price. Give it one with the modelPrices setting (README: Settings).`,
    );
  return prices;
}

/** The session's costs: prices, the budget, and which models a budget can count. */
function costsOf(prices: PriceTable, args: RunArguments): NonNullable<AgentSessionOptions['costs']> {
  return {
    costOf: prices.costOf,
    canPrice: (model) => prices.priceOf(model) !== undefined,
    ...(args.maxBudgetUsd !== undefined ? { maxUsd: args.maxBudgetUsd } : {}),
  };
}

/**
 * The environment of what the session runs (hooks, Bash, MCP servers): the settings' `env` over
 * the process's. Not the choice of provider: a project's file cannot send the API key elsewhere.
 */
function withSettingsEnv(env: RuntimeOptions['env'], settings: LoadedSettings): RuntimeOptions['env'] {
  return settings.env.size > 0 ? { ...env, ...Object.fromEntries(settings.env) } : env;
}

/**
 * The transcripts' store. With `--no-session-persistence` it is a folder of the session's own,
 * removed when the session closes (`discard`), so nothing of it stays to be resumed or read.
 */
function openSessionStore(args: RunArguments, configDir: string, cwd: string) {
  if (args.persistSession) return { sessions: createSessionStore({ configDir, cwd }), discard: async () => undefined };
  const folder = join(configDir, 'ephemeral', randomUUID());
  return {
    sessions: createSessionStore({ configDir: folder, cwd }),
    discard: () => rm(folder, { recursive: true, force: true }),
  };
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

/**
 * What the settings guard found after a batch of tool calls (a settings file a call wrote, now
 * held): in the terminal UI a turn's notices are events; elsewhere, and at close, they go to `warn`.
 */
function settingsNotices(
  guard: SettingsGuard,
  options: Pick<RuntimeOptions, 'interactive' | 'warn'>,
): (signal?: AbortSignal) => Promise<AfterToolsReport> {
  return async (turnSignal) => {
    const report = await guard.afterTools(turnSignal);
    if (options.interactive && turnSignal) return report;
    for (const line of report.notices) options.warn(`toolplane: ${line}`);
    return { notices: [], changedSettings: report.changedSettings };
  };
}
