import { ToolplaneError } from '../errors/toolplane-error.js';
import { createSpendingMeter } from '../loop/run-accounting.js';
import { createAsyncHookOutput, type AsyncHookOutput } from './async-hook-output.js';
import { createHookConditionJudge, reportHookConditionProblems } from './hook-conditions.js';
import type { Approver } from '../contract/gates.js';
import { createServices, type ServiceRegistry } from '../contract/services.js';
import { createHookGate, type HookPlane } from '../hooks/create-hook-gate.js';
import type { HookRunners } from '../hooks/hook-registry.js';
import { createHookRunners } from './hook-runners.js';
import { createDecisionLedger, type DecisionLedger } from './decision-ledger.js';
import { guardObserver, observeTurn, type GuardedObserver } from './session-observer.js';
import { unreachableHookMessages } from '../hooks/event-values.js';
import type { Session, SessionStore } from '../loop/session-store.js';
import type { HookSession } from '../hooks/hook-input.js';
import { GENERAL_PURPOSE_AGENT } from '../loop/subagent-runner.js';
import { createModelSummarizer } from '../loop/summarize-with-model.js';
import type { QueryOptions } from '../loop/types.js';
import { createApiToolCache } from '../schema/to-api-tool.js';
import { installConversation, openConversation, type Conversation } from './conversation.js';
import { tellConfigChanges } from './config-change.js';
import { compactManually } from './manual-compact.js';
import { notifyingApprover } from './notifying-approver.js';
import { runHostToolCall } from './run-host-tool-call.js';
import { runTurn, type TurnContext } from './run-turn.js';
import { installSessionServices } from './session-services.js';
import { registerSubagents } from './session-subagents.js';
import { createSessionTools, type SessionTools } from './session-tools.js';
import { announceInstructions, createStartContext } from './start-context.js';
import { structuredOutputSetup } from './structured-output.js';
import { registerGateServices, reportRuleProblems } from './start-checks.js';
import type { AgentSession, AgentSessionOptions } from './types.js';

/** The context window a session assumes when its options give none. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

/**
 * Creates an agent session: one conversation (transcript, history, result store, read-file state,
 * todo list) replaced whole on resume and clear, one permission-mode store read by the permission
 * engine, plan mode and every call, the lifecycle hooks wired once, and subagents. Resuming a
 * session that does not exist throws `SESSION_CORRUPT`; lines of its transcript that cannot be read
 * are reported through `warn`, and so are the permission rules' problems (`ruleProblems`). A
 * `structuredOutput` schema that does not compile throws `INVALID_TOOL_DEFINITION`, and a tool
 * whose declared service is not registered throws `MISSING_SERVICE`, before anything starts.
 */
export async function createAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { provider, cwd, sessions, modes, system } = options;
  const model = options.model ?? provider.defaultModel;
  const warn = options.warn ?? (() => undefined);
  const output = structuredOutputSetup(options.structuredOutput);
  let conversation = await firstConversation(options, warn);
  const detached = createAsyncHookOutput(warn);
  const services = options.services ?? createServices();
  const runners = createHookRunners({
    ...{ provider, mcp: options.mcp, services, cwd },
    model: () => currentModel,
    tools: () => tools,
    plane: () => plane(),
    costs: () => meter.costs(),
  });
  const { hooks, ledger, observer } = sessionHooks(options, { conversation: () => conversation, detached, runners });
  const { todoStore, taskRegistry } = installSessionServices(services, {
    modes,
    messages: () => conversation.messages,
  });
  installConversation(conversation, services, todoStore);
  registerGateServices(services, options.permissions);
  const tools = sessionTools(options, output.tools, services);
  let approver: Approver | undefined;
  const plane = (): QueryOptions['plane'] => planeOf(options, { hooks, approver, services, conversation });
  const hookSession = () => ({ sessionId: conversation.transcript.id, cwd, permissionMode: modes.get() });
  const closing = options.signal ?? new AbortController().signal;
  const meter = sessionMeter(options.costs);
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
    ledger,
    costs: meter.costs,
    signal: closing,
  });
  const ruleProblems = checkAtStart(options, tools, warn);
  const summarize = createModelSummarizer({ provider, model, system, costs: meter.costs });
  const starts = createStartContext({ hooks, hookSession, model, signal: closing });
  const replace = async (next: Conversation, source: 'resume' | 'clear') => {
    await conversation.transcript.flush();
    conversation = next;
    installConversation(conversation, services, todoStore);
    await starts.start(source);
  };
  let currentModel = model;
  const afterTools = options.afterTools && tellConfigChanges(options.afterTools, { hooks, hookSession, warn });
  const turn: TurnContext = {
    provider,
    get model() {
      return currentModel;
    },
    system,
    cwd,
    hooks,
    modes,
    conversation: () => conversation,
    onMessages: (messages) => {
      conversation = { ...conversation, messages };
    },
    onInputTokens: meter.inputTokens,
    takeStartContext: () => [...starts.take(), ...detached.take()],
    ...(afterTools ? { afterTools } : {}),
    loop: loopOptions({ options, tools, plane, costs: meter.costs, summarize, output, late: detached.take }),
    toolCache: createApiToolCache(),
    ledger,
  };
  const ending = { options, afterTools, hooks, hookSession, taskRegistry, warn, detached };
  await announceInstructions({ hooks, hookSession, files: options.instructionFiles ?? [], signal: closing });
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
    submit: observedSubmit(observer, turn, () => conversation.transcript.id),
    runToolCall: (call, signal) =>
      runHostToolCall({ call, pool: tools.pool(), plane: plane(), hooks, hookSession: hookSession(), ledger, signal }),
    model: () => currentModel,
    spending: () => meter.spending,
    setModel(next) {
      currentModel = next ?? model;
    },
    setApprover(next) {
      approver = next && notifyingApprover(next, { hooks, hookSession });
    },
    async compact(signal) {
      const compacted = await compactManually({
        hooks,
        session: hookSession(),
        messages: conversation.messages,
        summarize,
        signal,
      });
      if (!compacted.messages) return compacted.report;
      conversation = { ...conversation, messages: compacted.messages };
      conversation.transcript.appendCompaction(compacted.messages);
      await starts.start('compact');
      return compacted.report;
    },
    resume: async (sessionId) => replace(await reopenConversation(sessions, sessionId, warn), 'resume'),
    clear: async () => replace(openConversation(sessions.create()), 'clear'),
    lastInputTokens: meter.lastInputTokens,
    close: () => closeSession(ending, conversation.transcript),
  };
}

/**
 * What the session's runs used: the last request's input tokens, and what every request cost, its
 * subagents' included, on one meter that `--max-budget-usd` caps as a whole.
 */
function sessionMeter(costs: AgentSessionOptions['costs']) {
  let lastInputTokens = 0;
  const spending = createSpendingMeter();
  const runCosts = costs ? { ...costs, meter: spending } : undefined;
  return {
    inputTokens: (tokens: number) => {
      lastInputTokens = tokens;
    },
    lastInputTokens: () => lastInputTokens,
    spending,
    costs: () => runCosts,
  };
}

/** Detached hooks stopped, ConfigChange for what changed last, SessionEnd hooks, background tasks stopped, the host's clean-up, then the transcript flushed. */
async function closeSession(
  parts: {
    readonly options: AgentSessionOptions;
    readonly afterTools: ((signal?: AbortSignal) => Promise<readonly string[]>) | undefined;
    readonly hooks: HookPlane;
    readonly hookSession: () => HookSession;
    readonly taskRegistry: { dispose(): Promise<void> };
    readonly warn: (line: string) => void;
    readonly detached: AsyncHookOutput;
  },
  transcript: Session,
): Promise<void> {
  parts.detached.end();
  const { options, hooks } = parts;
  // Background tasks may have written since the last batch.
  for (const line of (await parts.afterTools?.()) ?? []) parts.warn(line);
  const signal = new AbortController().signal;
  await hooks.sessionEnd({ session: parts.hookSession(), signal, reason: 'exit' }).catch(() => undefined);
  await parts.taskRegistry.dispose();
  await options.onClose?.();
  await transcript.flush();
}

/** What every turn's loop gets from the session; the plane is read anew for each turn (approver, conversation). */
function loopOptions(parts: {
  readonly options: AgentSessionOptions;
  readonly tools: SessionTools;
  readonly plane: () => QueryOptions['plane'];
  readonly costs: () => QueryOptions['costs'];
  readonly summarize: NonNullable<QueryOptions['compaction']>['summarize'];
  readonly output: { readonly requiredTool?: QueryOptions['requiredTool'] };
  /** What async hooks said while calls ran, for the next request. */
  readonly late: () => readonly string[];
}): TurnContext['loop'] {
  const { options, tools, plane } = parts;
  const requiredTool = parts.output.requiredTool;
  return {
    getPool: tools.pool,
    get plane() {
      return plane();
    },
    get costs() {
      return parts.costs();
    },
    deferral: tools.deferral,
    lateContext: parts.late,
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(requiredTool ? { requiredTool } : {}),
    compaction: {
      contextWindowTokens: options.contextWindowTokens ?? CONTEXT_WINDOW_TOKENS,
      summarize: parts.summarize,
    },
  };
}

/** The plane of the session's calls as it is now: its rules, hooks, approver, conversation and mode. */
function planeOf(
  options: AgentSessionOptions,
  now: {
    readonly hooks: HookPlane;
    readonly approver: Approver | undefined;
    readonly services: ServiceRegistry;
    readonly conversation: Conversation;
  },
): QueryOptions['plane'] {
  return {
    permissions: options.permissions,
    hooks: now.hooks,
    ...(now.approver ? { approver: now.approver } : {}),
    cwd: options.cwd,
    sessionId: now.conversation.transcript.id,
    services: now.services,
    getPermissionMode: () => options.modes.get(),
    resultStore: now.conversation.resultStore,
  };
}

/** The session's hooks: settings hooks and function hooks, with the session's folder, environment and home. */
function sessionHooks(
  options: AgentSessionOptions,
  parts: {
    readonly conversation: () => Conversation;
    readonly detached: AsyncHookOutput;
    readonly runners: HookRunners;
  },
): { readonly hooks: HookPlane; readonly ledger: DecisionLedger; readonly observer: GuardedObserver } {
  const { detached } = parts;
  const warn = options.warn ?? (() => undefined);
  const observer = guardObserver(options.observer ?? {}, warn);
  // Each call's path goes into the transcript of the conversation it ran in, and to the observer.
  const recorded = createDecisionLedger((entries) => {
    parts.conversation().transcript.appendEvents(entries);
    observer.calls(entries);
  });
  const ledger: DecisionLedger = {
    ...recorded,
    observe(event, agent) {
      observer.event(event, agent);
      recorded.observe(event, agent);
    },
  };
  const hooks = createHookGate({
    runners: parts.runners,
    ...(options.hooks ? { settings: options.hooks } : {}),
    ...(options.functionHooks ? { functionHooks: options.functionHooks } : {}),
    projectDir: options.cwd,
    env: options.env,
    homeDir: options.homeDir,
    transcriptPath: () => parts.conversation().transcript.path,
    onHookRun: (event) => {
      ledger.hook(event);
      options.onHookRun?.(event);
    },
    conditionMatches: createHookConditionJudge({ cwd: options.cwd, homeDir: options.homeDir }),
    onAsyncRun: detached.onAsyncRun,
    lifetime: detached.lifetime,
    // By name: a hook that cannot run protects nothing, and the person must know which one.
    onDiagnostic: (diagnostic) =>
      warn(`hook ${diagnostic.event} ${JSON.stringify(diagnostic.hook)} (${diagnostic.source}): ${diagnostic.message}`),
  });
  return { hooks, ledger, observer };
}

/** The session's `submit`: one turn, watched by the observer. */
function observedSubmit(observer: GuardedObserver, turn: TurnContext, sessionId: () => string): AgentSession['submit'] {
  return (prompt, signal) =>
    observeTurn(
      observer,
      { sessionId: sessionId(), prompt, model: turn.model, provider: turn.provider.name },
      runTurn(turn, prompt, signal),
    );
}

/** The conversation a session starts with: a new one (under `sessionId` if given), the one resumed, or a fork of it. */
async function firstConversation(options: AgentSessionOptions, warn: (line: string) => void): Promise<Conversation> {
  const { sessions, sessionId } = options;
  if (sessionId !== undefined && (await sessions.has(sessionId)))
    throw new ToolplaneError('SESSION_CORRUPT', `A session with the id ${sessionId} exists already.`);
  if (options.resume === undefined) return openConversation(sessions.create(sessionId));
  return reopenConversation(sessions, options.resume, warn, options.fork === true ? { id: sessionId } : undefined);
}

/**
 * The conversation of session `sessionId`, continued in its own transcript, or with `fork` in a
 * new one (of the id `fork.id` when given) that gets the history first, the earlier left untouched.
 * Unreadable transcript lines are reported, and calls a killed run left without results are
 * answered in the transcript itself.
 */
async function reopenConversation(
  sessions: SessionStore,
  sessionId: string,
  warn: (line: string) => void,
  fork?: { readonly id: string | undefined },
): Promise<Conversation> {
  const loaded = await sessions.load(sessionId);
  for (const line of loaded.skippedLines) warn(`warning: ${loaded.path}:${line} could not be read and was skipped`);
  const transcript = fork ? sessions.create(fork.id) : sessions.reopen(sessionId);
  if (fork) for (const message of loaded.messages) transcript.appendMessage(message);
  if (loaded.interrupted.length > 0) {
    // Answered, never run again: the model is told they may have run and to check first. The
    // history copied into a fork holds those answers already.
    if (!fork) transcript.appendMessage({ role: 'user', content: [...loaded.interrupted] });
    warn(
      `warning: ${loaded.interrupted.length} tool call(s) of session ${sessionId} were interrupted and may have run; the model is told to check before repeating them`,
    );
  }
  return openConversation(transcript, loaded.messages);
}

/** The session's tools: the host's, structured output's, and the MCP servers' as they connect. */
function sessionTools(
  options: AgentSessionOptions,
  outputTools: readonly AgentSessionOptions['tools'][number][],
  services: ServiceRegistry,
): SessionTools {
  const isBlanketDenied = options.permissions.isBlanketDenied?.bind(options.permissions);
  return createSessionTools({
    tools: [...options.tools, ...outputTools],
    mcp: options.mcp,
    ...(isBlanketDenied ? { isBlanketDenied } : {}),
    services,
  });
}

/**
 * What can be found wrong before anything runs: a tool's missing service (thrown, naming tool and
 * service, rather than at its first call), the rules' problems (returned), hooks' `if` naming a
 * tool the session lacks, and hooks whose matcher can match nothing toolplane sends.
 */
function checkAtStart(options: AgentSessionOptions, tools: SessionTools, warn: (line: string) => void) {
  tools.pool();
  const ruleProblems = reportRuleProblems({ ...options, mcpServers: mcpServerNames(options), warn });
  reportHookConditionProblems({ ...options, mcpServers: mcpServerNames(options), warn });
  for (const line of unreachableHookMessages({ settings: options.hooks, functionHooks: options.functionHooks }))
    warn(`warning: ${line}`);
  return ruleProblems;
}

function mcpServerNames(options: AgentSessionOptions): string[] {
  return options.mcp?.servers().map((server) => server.name) ?? [];
}
