import type { Approver } from '../contract/gates.js';
import { createServices } from '../contract/services.js';
import { createHookGate } from '../hooks/create-hook-gate.js';
import { compactMessages } from '../loop/auto-compact.js';
import type { SessionStore } from '../loop/session-store.js';
import { GENERAL_PURPOSE_AGENT } from '../loop/subagent-runner.js';
import { createModelSummarizer } from '../loop/summarize-with-model.js';
import type { QueryOptions } from '../loop/types.js';
import { createApiToolCache } from '../schema/to-api-tool.js';
import { createShellState, SHELL_STATE } from '../tools/bash/shell-state.js';
import { createPlanModeController, PLAN_MODE_CONTROLLER } from '../tools/plan-mode/plan-mode-controller.js';
import { createTaskRegistry, TASK_REGISTRY } from '../tools/tasks/task-registry.js';
import { createTodoStore, TODO_STORE } from '../tools/todo-write/todo-store.js';
import { installConversation, openConversation, type Conversation } from './conversation.js';
import { runTurn } from './run-turn.js';
import { registerSubagents } from './session-subagents.js';
import { createStartContext } from './start-context.js';
import { createSessionTools } from './session-tools.js';
import { registerGateServices, reportRuleProblems } from './start-checks.js';
import type { AgentSession, AgentSessionOptions } from './types.js';

const CONTEXT_WINDOW_TOKENS = 200_000;

/**
 * Creates an agent session: one conversation (transcript, history, result store, read-file state,
 * todo list) replaced whole on resume and clear, one permission-mode store read by the permission
 * engine, plan mode and every call, the lifecycle hooks wired once, and subagents. Resuming a
 * session that does not exist throws `SESSION_CORRUPT`; lines of its transcript that cannot be read
 * are reported through `warn`, and so are the permission rules' problems (`ruleProblems`). A tool
 * whose declared service is not registered throws `MISSING_SERVICE` before anything starts.
 */
export async function createAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { provider, cwd, sessions, modes, system } = options;
  const model = options.model ?? provider.defaultModel;
  const warn = options.warn ?? (() => undefined);
  let conversation: Conversation =
    options.resume === undefined
      ? openConversation(sessions.create())
      : await reopenConversation(sessions, options.resume, warn);
  const hooks = createHookGate({
    ...(options.hooks ? { settings: options.hooks } : {}),
    ...(options.functionHooks ? { functionHooks: options.functionHooks } : {}),
    projectDir: cwd,
    ...(options.env ? { env: options.env } : {}),
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
    transcriptPath: () => conversation.transcript.path,
    onDiagnostic: (diagnostic) => warn(`hook: ${diagnostic.message}`),
  });
  const services = options.services ?? createServices();
  const todoStore = createTodoStore();
  const taskRegistry = createTaskRegistry();
  services
    .set(TASK_REGISTRY, taskRegistry)
    .set(SHELL_STATE, createShellState())
    .set(TODO_STORE, todoStore)
    .set(PLAN_MODE_CONTROLLER, createPlanModeController({ store: modes }));
  installConversation(conversation, services, todoStore);
  registerGateServices(services, options.permissions);
  const tools = createSessionTools({
    tools: options.tools,
    mcp: options.mcp,
    ...(options.permissions.isBlanketDenied
      ? { isBlanketDenied: (name: string) => options.permissions.isBlanketDenied!(name) }
      : {}),
    services,
    messages: () => conversation.messages,
  });
  let approver: Approver | undefined;
  const plane = (): QueryOptions['plane'] => ({
    permissions: options.permissions,
    hooks,
    ...(approver ? { approver } : {}),
    cwd,
    sessionId: conversation.transcript.id,
    services,
    getPermissionMode: () => modes.get(),
    resultStore: conversation.resultStore,
  });
  const hookSession = () => ({ sessionId: conversation.transcript.id, cwd, permissionMode: modes.get() });
  const closing = options.signal ?? new AbortController().signal;
  registerSubagents({
    services,
    provider,
    model,
    system,
    tools,
    plane,
    agentTypes: options.agentTypes ?? [GENERAL_PURPOSE_AGENT],
    hooks,
    hookSession,
    signal: closing,
  });
  // Fails here, naming tool and service, rather than at the tool's first call.
  tools.pool();
  const ruleProblems = reportRuleProblems({
    permissions: options.permissions,
    tools: options.tools,
    mcpServers: options.mcp?.servers().map((server) => server.name) ?? [],
    warn,
  });
  const summarize = createModelSummarizer({ provider, model, system });
  const starts = createStartContext({ hooks, hookSession, model, signal: closing });
  const replace = async (next: Conversation, source: 'resume' | 'clear') => {
    await conversation.transcript.flush();
    conversation = next;
    installConversation(conversation, services, todoStore);
    await starts.start(source);
  };
  let lastInputTokens = 0;
  const turn = {
    provider,
    model,
    system,
    cwd,
    hooks,
    modes,
    conversation: () => conversation,
    onMessages: (messages: Conversation['messages']) => {
      conversation = { ...conversation, messages };
    },
    onInputTokens: (tokens: number) => {
      lastInputTokens = tokens;
    },
    takeStartContext: starts.take,
    ...(options.afterTools ? { afterTools: options.afterTools } : {}),
    loop: {
      getPool: tools.pool,
      get plane() {
        return plane();
      },
      deferral: tools.deferral,
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(options.requiredTool ? { requiredTool: options.requiredTool } : {}),
      compaction: { contextWindowTokens: options.contextWindowTokens ?? CONTEXT_WINDOW_TOKENS, summarize },
    },
    toolCache: createApiToolCache(),
  };
  await starts.start(options.resume === undefined ? 'startup' : 'resume');

  return {
    id: () => conversation.transcript.id,
    transcript: () => conversation.transcript,
    messages: () => conversation.messages,
    pool: tools.pool,
    modes,
    ruleProblems,
    hooks,
    services,
    todoStore,
    todos: () => todoStore.get('main'),
    submit: (prompt, signal) => runTurn(turn, prompt, signal),
    setApprover(next) {
      approver = next;
    },
    async compact(signal) {
      await hooks.preCompact({ session: hookSession(), signal, trigger: 'manual' });
      const compacted = await compactMessages({
        messages: conversation.messages,
        summarize,
        deferral: tools.deferral,
        signal,
        keepRecent: 2,
      });
      if (!compacted) return 'Nothing to compact yet.';
      conversation = { ...conversation, messages: compacted.messages };
      conversation.transcript.appendCompaction(compacted.messages);
      await starts.start('compact');
      return `Compacted ${compacted.removed} messages into a summary.`;
    },
    resume: async (sessionId) => replace(await reopenConversation(sessions, sessionId, warn), 'resume'),
    clear: async () => replace(openConversation(sessions.create()), 'clear'),
    lastInputTokens: () => lastInputTokens,
    async close() {
      // Background tasks may have written since the last batch.
      for (const line of (await options.afterTools?.()) ?? []) warn(line);
      await hooks
        .sessionEnd({ session: hookSession(), signal: new AbortController().signal, reason: 'exit' })
        .catch(() => undefined);
      await taskRegistry.dispose();
      await options.onClose?.();
      await conversation.transcript.flush();
    },
  };
}

/**
 * The conversation of an earlier session, to append to; unreadable transcript lines are reported,
 * and calls a killed run left without results are answered in the transcript itself.
 */
async function reopenConversation(
  sessions: SessionStore,
  sessionId: string,
  warn: (line: string) => void,
): Promise<Conversation> {
  const loaded = await sessions.load(sessionId);
  for (const line of loaded.skippedLines) warn(`warning: ${loaded.path}:${line} could not be read and was skipped`);
  const transcript = sessions.reopen(sessionId);
  if (loaded.interrupted.length > 0) {
    // Answered, never run again: the model is told they may have run and to check first.
    transcript.appendMessage({ role: 'user', content: [...loaded.interrupted] });
    warn(
      `warning: ${loaded.interrupted.length} tool call(s) of session ${sessionId} were interrupted and may have run; the model is told to check before repeating them`,
    );
  }
  return openConversation(transcript, loaded.messages);
}
