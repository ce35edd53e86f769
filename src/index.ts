/**
 * toolplane: the tool control plane for LLM agents. The contract (defineTool), the plane
 * (runToolUses, createToolExecutor), the loop (query), the session (createAgentSession), the stages it composes (pool, schema,
 * permissions, hooks, results, search), settings, MCP and providers. Built-in tools are exported
 * from `toolplane/tools`; fakes and mock servers from `toolplane/testing`.
 */
export * from './contract/index.js';
export * from './messages/index.js';
export * from './errors/index.js';
export * from './pool/index.js';
export * from './schema/index.js';
export * from './results/index.js';
export * from './execution/index.js';
export * from './loop/index.js';
export {
  createAgentSession,
  createPermissionModeStore,
  findSessionToResume,
  loadSessionPrompt,
  loadSessionSystemPrompt,
  type AfterToolsReport,
  type AgentSession,
  type AgentSessionOptions,
  type ChangedSettingsFile,
  type Conversation,
  type PermissionModeListener,
  type PermissionModeStore,
  type StructuredOutputOptions,
  type SessionSystemPromptOptions,
} from './session/index.js';
export * from './permissions/index.js';
export * from './settings/index.js';
export * from './hooks/index.js';
export * from './sandbox/index.js';
export {
  buildSearchIndex,
  createSearchIndexCache,
  describeToolForSearch,
  parseToolSearchQuery,
  rankSearchIndex,
  searchTools,
  tokenize,
  DEFAULT_RANKING_PARAMETERS,
  type SearchIndex,
  type SearchIndexCache,
  type SearchToolsResult,
  type ToolDescriptor as SearchToolDescriptor,
  type ToolSearchQuery,
} from './search/index.js';
export * from './providers/index.js';
export * from './mcp/index.js';
