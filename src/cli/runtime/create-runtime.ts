import { dirname } from 'node:path';
import type { Approver } from '../../contract/gates.js';
import type { PermissionMode } from '../../contract/permission.js';
import type { ModelProvider } from '../../contract/provider.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { AnyTool } from '../../contract/tool.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import type { Message } from '../../messages/types.js';
import { assembleToolPool } from '../../pool/assemble-tool-pool.js';
import type { ToolPool } from '../../pool/tool-pool.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';
import { createResultStore } from '../../results/result-store.js';
import { query } from '../../loop/query.js';
import { compactMessages } from '../../loop/auto-compact.js';
import { configDirectory, createSessionStore, lastTodoWriteInput, type Session } from '../../loop/session-store.js';
import { buildSystemPrompt, loadProjectInstructions } from '../../loop/system-prompt.js';
import { createModelSummarizer } from '../../loop/summarize-with-model.js';
import { createSubagentRunner, GENERAL_PURPOSE_AGENT } from '../../loop/subagent-runner.js';
import type { DeferralStrategy, LoopEvent, QueryResult } from '../../loop/types.js';
import type { PermissionEngine } from '../../permissions/permission-engine.js';
import { initShellParser } from '../../permissions/bash-parser.js';
import { createHookGate, type HookPlane } from '../../hooks/create-hook-gate.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { createFileStateStore, fileStateService } from '../../tools/file-state/file-state-store.js';
import { READ_DENIED_PATH } from '../../tools/fs-helpers/read-denied-path.js';
import { createTaskRegistry, TASK_REGISTRY } from '../../tools/tasks/task-registry.js';
import { createShellState, SHELL_STATE } from '../../tools/bash/shell-state.js';
import { createSpillFolder, SPILL_FOLDER } from '../../tools/bash/spill-folder.js';
import { createTodoStore, TODO_STORE, type TodoItem, type TodoStore } from '../../tools/todo-write/todo-store.js';
import { createPlanModeController, PLAN_MODE_CONTROLLER } from '../../tools/plan-mode/plan-mode-controller.js';
import { createModelPromptApplier, WEB_FETCH_PROMPT_APPLIER } from '../../tools/web-fetch/prompt-applier.js';
import { privateHostsFromRules } from '../../tools/web-fetch/private-hosts-from-rules.js';
import { subagentService } from '../../tools/agent/subagent-service.js';
import { deferredToolsService } from '../../tools/tool-search/deferred-tools-service.js';
import { discoveredToolNames } from '../../tools/tool-search/discovered-tool-names.js';
import { deferredToolsAnnouncement } from '../../tools/tool-search/deferred-tools-announcement.js';
import { isDeferred } from '../../tools/tool-search/is-deferred.js';
import { createDeferredToolSearch } from '../../search/create-deferred-tool-search.js';
import { createStructuredOutputTool, STRUCTURED_OUTPUT_TOOL_NAME } from '../../tools/structured-output/structured-output-tool.js';
import { webSearchService } from '../../tools/web-search/web-search-service.js';
import { mcpResourcesService } from '../../tools/mcp-resources/mcp-resource-service.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { RunArguments } from '../args.js';
import { loadPermissions } from './load-permissions.js';
import { parseJsonSchemaArgument } from './parse-json-schema-argument.js';
import { createBuiltinTools } from './builtin-tools.js';
import { chooseProvider, createProvider } from './choose-provider.js';
import { startSessionMcp } from './mcp-setup.js';
import { watchedConfigFiles, type HeldConfigFile } from './held-config-files.js';
import { createSettingsGuard, type SettingsGuard } from './settings-guard.js';
import { setUpSandbox } from './sandbox-setup.js';
import { SANDBOX } from '../../contract/sandbox.js';

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

/** A session: everything wired, ready to take prompts. */
export type Runtime = {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly settings: LoadedSettings;
  readonly permissions: PermissionEngine;
  readonly hooks: HookPlane;
  readonly mcp: McpManager | undefined;
  readonly services: ServiceRegistry;
  readonly todoStore: TodoStore;
  session(): Session;
  messages(): readonly Message[];
  pool(): ToolPool;
  /** Runs one user prompt through the loop. */
  submit(prompt: string, signal: AbortSignal): AsyncGenerator<LoopEvent, QueryResult>;
  setApprover(approver: Approver | undefined): void;
  compact(signal: AbortSignal): Promise<string>;
  resume(sessionId: string): Promise<void>;
  clear(): Promise<void>;
  todos(): readonly TodoItem[];
  lastInputTokens(): number;
  close(): Promise<void>;
};

const MAX_STRUCTURED_OUTPUT_REMINDERS = 3;
/** How long ToolSearch may wait for MCP servers still connecting when it found nothing. */
const MCP_WAIT_MS = 5_000;
const CONTEXT_WINDOW_TOKENS = 200_000;

/**
 * The composition root of a session: settings, permission engine, hooks, provider, built-in and
 * MCP tools, the session transcript, and the loop. Throws `SETTINGS_INVALID` for a settings file
 * that cannot be read (a deny rule must never be lost silently).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { args, cwd, env, homeDir } = options;
  const signal = options.signal ?? new AbortController().signal;
  // Checked before anything starts: a bad argument must not leave MCP servers or a transcript behind.
  const jsonSchemaTool: AnyTool | undefined = args.jsonSchema === undefined ? undefined : createStructuredOutputTool(parseJsonSchemaArgument(args.jsonSchema));
  const choice = chooseProvider({ provider: args.provider, baseUrl: args.baseUrl, script: args.script, env });
  // Start the work that does not depend on settings while they load.
  const providerPromise = createProvider(choice, { script: args.script, env, model: args.model });
  const parserReady = initShellParser().catch((error: unknown) => options.warn(`The shell parser failed to load; Bash calls will ask: ${String(error)}`));
  const instructionsPromise = loadProjectInstructions(cwd, { signal });

  // The settings watch starts with the session, after the permissions it reports saved rules to.
  const guardRef: { current?: SettingsGuard } = {};
  const { settings, engine, permissions, initialMode } = await loadPermissions({ ...options, signal, onRuleSaved: (saved) => guardRef.current?.recordSavedRule(saved) ?? Promise.resolve(undefined) });
  let mode: PermissionMode = initialMode;

  const configDir = configDirectory(env as NodeJS.ProcessEnv, homeDir);
  const sessions = createSessionStore({ configDir, cwd });
  let session: Session;
  let history: Message[] = [];
  if (args.resume || args.continue) {
    const id = args.resume ?? (await sessions.list())[0]?.id;
    if (!id) throw new ToolplaneError('SESSION_CORRUPT', 'There is no earlier session in this folder to continue.');
    const loaded = await sessions.load(id);
    for (const line of loaded.skippedLines) options.warn(`warning: ${loaded.path}:${line} could not be read and was skipped`);
    history = loaded.messages;
    session = sessions.reopen(id);
  } else {
    session = sessions.create();
  }

  const settingsGuard = await createSettingsGuard({
    files: watchedConfigFiles({ cwd, env, homeDir, settingsFlag: args.settings, mcpConfigFiles: args.mcpConfig }),
    cwd,
    env,
    homeDir,
    sessionId: () => session.id,
    warn: options.warn,
    signal,
  });
  guardRef.current = settingsGuard;

  const hooks = createHookGate({
    settings: settings.hooks,
    projectDir: cwd,
    env,
    homeDir,
    transcriptPath: () => session.path,
    onDiagnostic: (diagnostic) => options.warn(`hook: ${diagnostic.message}`),
  });

  const provider = await providerPromise;
  const model = args.model ?? provider.defaultModel;
  const services = createServices();
  const todoStore = createTodoStore();
  const taskRegistry = createTaskRegistry();
  const planMode = createPlanModeController({ initialMode: mode });
  planMode.subscribe((next) => {
    mode = next;
    engine.setMode(next);
  });
  services
    .set(fileStateService, createFileStateStore())
    .set(TASK_REGISTRY, taskRegistry)
    .set(SHELL_STATE, createShellState())
    .set(TODO_STORE, todoStore)
    .set(PLAN_MODE_CONTROLLER, planMode)
    .set(READ_DENIED_PATH, (path: string) => engine.pathDenial(path, 'read') !== undefined)
    .set(WEB_FETCH_PROMPT_APPLIER, createModelPromptApplier({ provider, model }));
  const { sandbox, tmpDir } = setUpSandbox({
    settings: settings.sandbox,
    rules: settings.rules,
    cwd,
    additionalDirectories: [...settings.additionalDirectories.map((directory) => directory.path), ...args.addDir],
    homeDir,
    configDir,
    sessionFolder: dirname(session.resultsDirectory),
    hooks: settings.hooks,
    mcpServers: settings.mcpServers,
    env,
    warn: options.warn,
  });
  if (sandbox) {
    services.set(SANDBOX, sandbox);
    // The private /tmp of sandboxed commands is a real folder: Read can open what they leave there.
    engine.addDirectory(tmpDir);
  }
  const setSpill = () => services.set(SPILL_FOLDER, createSpillFolder({ path: session.resultsDirectory }));
  setSpill();
  if (choice.name === 'anthropic' && provider.capabilities.webSearch) {
    const { createAnthropicWebSearch } = await import('../../providers/anthropic/anthropic-web-search.js');
    const backend = createAnthropicWebSearch({ env, ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}), defaultModel: model });
    services.set(webSearchService, { search: async (request, searchSignal) => backend.search(request, searchSignal) });
  }
  if (history.length > 0) restoreTodos(todoStore, history);

  const mcp = await startSessionMcp({ cwd, env, homeDir, settings, configFiles: args.mcpConfig, signal, warn: options.warn });
  if (mcp) services.set(mcpResourcesService, mcp);

  const allowPrivateHosts = privateHostsFromRules(settings.rules);
  const agentTypes = [GENERAL_PURPOSE_AGENT];
  const builtins = [
    ...createBuiltinTools({ env, provider, interactive: options.interactive, hasMcp: mcp !== undefined, agentTypes, allowPrivateHosts }),
    ...(options.extraTools ?? []),
  ];

  let poolCache: { readonly external: readonly AnyTool[]; readonly pool: ToolPool } | undefined;
  const pool = (): ToolPool => {
    const external = mcp?.tools() ?? [];
    if (!poolCache || poolCache.external !== external) {
      poolCache = {
        external,
        pool: assembleToolPool({
          builtins: jsonSchemaTool ? [...builtins, jsonSchemaTool] : builtins,
          external,
          isBlanketDenied: (name) => engine.isBlanketDenied(name),
        }),
      };
    }
    return poolCache.pool;
  };
  const deferral: DeferralStrategy = {
    isDeferred: (tool) => isDeferred(tool),
    discovered: (messages) => discoveredToolNames(messages),
    announce: (names) => deferredToolsAnnouncement(names, pendingServers()),
  };
  const pendingServers = () => (mcp?.servers() ?? []).filter((server) => server.state.status === 'pending').map((server) => server.name);
  let currentMessages: readonly Message[] = history;
  const searchDeferred = createDeferredToolSearch();
  services.set(deferredToolsService, () => {
    const tools = pool().tools;
    const discovered = discoveredToolNames(currentMessages);
    return {
      search: searchDeferred,
      ...(mcp ? { waitForPendingServers: (waitSignal: AbortSignal) => mcp.whenSettled({ signal: AbortSignal.any([waitSignal, AbortSignal.timeout(MCP_WAIT_MS)]) }) } : {}),
      deferredTools: tools.filter((tool) => isDeferred(tool)),
      loadedToolNames: tools.filter((tool) => !isDeferred(tool) || discovered.has(tool.name)).map((tool) => tool.name),
      pendingServers: pendingServers(),
      failedServers: (mcp?.servers() ?? []).flatMap((server) => (server.state.status === 'failed' ? [{ name: server.name, reason: server.state.reason }] : [])),
    };
  });

  const instructions = await instructionsPromise;
  const system = buildSystemPrompt({
    cwd,
    instructions,
    ...(args.appendSystemPrompt ? { append: args.appendSystemPrompt } : {}),
    additionalDirectories: args.addDir,
  });
  let approver: Approver | undefined;
  let resultStore = createResultStore({ directory: session.resultsDirectory });
  const plane = () => ({
    permissions,
    hooks,
    ...(approver ? { approver } : {}),
    cwd,
    sessionId: session.id,
    services,
    getPermissionMode: () => mode,
    resultStore,
  });
  services.set(
    subagentService,
    createSubagentRunner({
      provider,
      model,
      system,
      getPool: pool,
      get plane() {
        return plane();
      },
      deferral,
      types: agentTypes,
      servicesFor: () => services.child().set(fileStateService, createFileStateStore()),
      onStop: async ({ agentId }) => {
        await hooks.subagentStop({ session: { sessionId: session.id, cwd, permissionMode: mode, agentId }, signal, stopHookActive: false });
      },
    } as Parameters<typeof createSubagentRunner>[0]),
  );
  const toolCache = createApiToolCache();
  const summarize = createModelSummarizer({ provider, model, system });
  let lastInputTokens = 0;
  await parserReady;

  async function* submit(prompt: string, turnSignal: AbortSignal): AsyncGenerator<LoopEvent, QueryResult> {
    const hookSession = { sessionId: session.id, cwd, permissionMode: mode };
    const submitted = await hooks.userPromptSubmit({ session: hookSession, signal: turnSignal, prompt });
    if (submitted.blocked !== undefined) {
      const error = new Error(`A UserPromptSubmit hook blocked the prompt: ${submitted.blocked}`);
      yield { type: 'error', error };
      return { status: 'error_during_execution', text: '', messages: currentMessages, turns: 0, usage: { inputTokens: 0, outputTokens: 0 }, permissionDenials: [], error };
    }
    const extra = submitted.additionalContext.map((text) => ({ type: 'text' as const, text }));
    const userMessage: Message = { role: 'user', content: [{ type: 'text', text: prompt }, ...extra] };
    session.appendMessage(userMessage);
    const generator = query(
      {
        provider,
        model,
        system,
        messages: [...currentMessages, userMessage],
        getPool: pool,
        plane: plane(),
        deferral,
        ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
        signal: turnSignal,
        recorder: {
          message: (message) => session.appendMessage(message),
          event: (event) => {
            if (event.type === 'compact' && Array.isArray(event.messages)) session.appendCompaction(event.messages as Message[]);
          },
        },
        hooks: {
          stop: async ({ lastAssistantText, stopHookActive }, stopSignal) => {
            const outcome = await hooks.stop({ session: hookSession, signal: stopSignal, stopHookActive, lastAssistantMessage: lastAssistantText });
            return outcome.continueWith !== undefined ? { continueWith: outcome.continueWith } : {};
          },
          preCompact: async ({ trigger }, compactSignal) => {
            await hooks.preCompact({ session: hookSession, signal: compactSignal, trigger });
          },
        },
        ...(jsonSchemaTool ? { requiredTool: { name: STRUCTURED_OUTPUT_TOOL_NAME, maxReminders: MAX_STRUCTURED_OUTPUT_REMINDERS } } : {}),
        compaction: { contextWindowTokens: CONTEXT_WINDOW_TOKENS, summarize },
      },
      toolCache,
    );
    let step = await generator.next();
    while (!step.done) {
      const event = step.value;
      if (event.type === 'assistant-message') {
        const used = event.usage.inputTokens + (event.usage.cacheReadInputTokens ?? 0) + (event.usage.cacheCreationInputTokens ?? 0);
        // The partial message of a failed stream reports no usage; the last real figure stands.
        if (used > 0) lastInputTokens = used;
      }
      if (event.type === 'tool-results' || event.type === 'assistant-message') currentMessages = [...currentMessages, event.message];
      yield event;
      if (event.type === 'tool-results') {
        // Tool calls just ran: a settings file one of them wrote is held from now on.
        for (const message of await settingsGuard.afterTools(turnSignal)) {
          if (options.interactive) yield { type: 'notice', message };
          else options.warn(`toolplane: ${message}`);
        }
      }
      step = await generator.next();
    }
    currentMessages = step.value.messages;
    return step.value;
  }

  return {
    provider,
    model,
    settings,
    permissions,
    hooks,
    mcp,
    services,
    todoStore,
    session: () => session,
    messages: () => currentMessages,
    pool,
    submit,
    setApprover(next) {
      approver = next;
    },
    async compact(compactSignal) {
      await hooks.preCompact({ session: { sessionId: session.id, cwd, permissionMode: mode }, signal: compactSignal, trigger: 'manual' });
      const compacted = await compactMessages({ messages: currentMessages, summarize, deferral, signal: compactSignal, keepRecent: 2 });
      if (!compacted) return 'Nothing to compact yet.';
      currentMessages = compacted.messages;
      session.appendCompaction(compacted.messages);
      return `Compacted ${compacted.removed} messages into a summary.`;
    },
    async resume(sessionId) {
      const loaded = await sessions.load(sessionId);
      await session.flush();
      session = sessions.reopen(sessionId);
      currentMessages = loaded.messages;
      resultStore = createResultStore({ directory: session.resultsDirectory });
      setSpill();
      restoreTodos(todoStore, loaded.messages);
      // Reads of the conversation left behind do not vouch for edits in the resumed one.
      services.set(fileStateService, createFileStateStore());
    },
    async clear() {
      await session.flush();
      session = sessions.create();
      currentMessages = [];
      resultStore = createResultStore({ directory: session.resultsDirectory });
      setSpill();
      todoStore.replace('main', []);
      // The new conversation has seen no file: edits must read again (the read-before-edit guard).
      services.set(fileStateService, createFileStateStore());
    },
    todos: () => todoStore.get('main'),
    lastInputTokens: () => lastInputTokens,
    async close() {
      // Background tasks may have written since the last batch.
      for (const message of await settingsGuard.afterTools()) options.warn(`toolplane: ${message}`);
      await hooks.sessionEnd({ session: { sessionId: session.id, cwd, permissionMode: mode }, signal: new AbortController().signal, reason: 'exit' }).catch(() => undefined);
      await taskRegistry.dispose();
      // After the tasks: a background command may still hold a stand-in for a protected path.
      await sandbox?.dispose?.();
      await mcp?.close();
      await session.flush();
    },
  };
}

function restoreTodos(store: TodoStore, messages: readonly Message[]): void {
  const input = lastTodoWriteInput(messages) as { todos?: unknown } | undefined;
  if (input && Array.isArray(input.todos)) store.replace('main', input.todos as TodoItem[]);
}
