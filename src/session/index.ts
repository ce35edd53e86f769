export { createAgentSession, CONTEXT_WINDOW_TOKENS } from './create-agent-session.js';
export { DEFAULT_MAX_TOKENS } from '../loop/query.js';
export type { HostToolCall } from './run-host-tool-call.js';
export type { AfterToolsReport, AgentSession, AgentSessionOptions, ChangedSettingsFile } from './types.js';
export { unreachableMatcherReason, type ConfigChangeSource } from '../hooks/event-values.js';
export { checkStructuredOutputSchema, type StructuredOutputOptions } from './structured-output.js';
export { openConversation, installConversation, todosFrom, type Conversation } from './conversation.js';
export { createSessionTools, offersToolSearch, type SessionTools } from './session-tools.js';
export { findSessionToResume } from './find-session-to-resume.js';
export {
  loadSessionPrompt,
  loadSessionSystemPrompt,
  type SessionSystemPromptOptions,
} from './session-system-prompt.js';
export { describeRuleProblem, type SessionPermissions } from './start-checks.js';
export {
  createPermissionModeStore,
  type PermissionModeStore,
  type PermissionModeListener,
} from '../contract/permission-mode-store.js';
// What a host that drives a session needs from the layers below, so it never reaches into them.
export {
  configDirectory,
  createSessionStore,
  type LoadedSession,
  type Session,
  type SessionStore,
  type SessionSummary,
} from '../loop/session-store.js';
export { GENERAL_PURPOSE_AGENT, type SubagentType } from '../loop/subagent-runner.js';
export type { LoopEvent, LoopStatus, PermissionDenial, QueryResult } from '../loop/types.js';
export { ZERO_USAGE, type RunCosts, type RunUsage, type SpendingMeter } from '../loop/run-accounting.js';
export type { HookPlane } from '../hooks/create-hook-gate.js';
export type { FunctionHook, HookRun } from '../hooks/hook-types.js';
export { hookEnvironment, type HookRunEvent } from '../hooks/hook-registry.js';
export { hookOutputSchema, type HookOutput } from '../hooks/parse-hook-output.js';
export { hookScriptProblem } from '../hooks/hook-script-check.js';
export type { LedgerEntry, LedgerHook } from './decision-ledger.js';
export type { ObservedTurn, SessionObserver } from './session-observer.js';
export { savedOutputPath } from '../results/index.js';
