export { query } from './query.js';
export { buildRequest } from './build-request.js';
export {
  announcedState,
  createDeferralTracker,
  discoveryOrder,
  viewDeferral,
  type DeferralTracker,
  type DeferralView,
} from './deferral.js';
export { compactMessages, KEEP_RECENT_MESSAGES } from './auto-compact.js';
export {
  compactHistory,
  findCompactionCut,
  carriedDiscoveredTools,
  COMPACTION_INSTRUCTION,
} from './compact-history.js';
export { createModelSummarizer } from './summarize-with-model.js';
export {
  buildSystemPrompt,
  loadProjectInstructions,
  TOOL_USE_GUIDANCE,
  INSTRUCTION_FILES,
  type ProjectInstructions,
} from './system-prompt.js';
export {
  configDirectory,
  createSessionStore,
  lastTodoWriteInput,
  loadTranscript,
  projectKey,
  type LoadedSession,
  type Session,
  type SessionStore,
  type SessionSummary,
  type TranscriptLine,
} from './session-store.js';
export { createAsyncQueue, type AsyncQueue } from './async-queue.js';
export type {
  DeferralStrategy,
  LoopEvent,
  LoopHooks,
  LoopRecorder,
  LoopStatus,
  PermissionDenial,
  QueryOptions,
  QueryResult,
} from './types.js';
export {
  addUsage,
  createRunAccounting,
  createSpendingMeter,
  ZERO_USAGE,
  type RunAccounting,
  type RunCosts,
  type RunUsage,
  type SpendingMeter,
} from './run-accounting.js';
export { createSubagentRunner, GENERAL_PURPOSE_AGENT, type SubagentType } from './subagent-runner.js';
