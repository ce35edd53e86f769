export {
  createToolSearchTool,
  toolSearchTool,
  mapToolSearchResult,
  DEFAULT_TOOL_SEARCH_RESULTS,
  type ToolSearchInput,
  type ToolSearchOutput,
  type ToolSearchToolOptions,
} from './tool-search.js';
export { deferredToolsService, type DeferredToolsState, type FailedServer } from './deferred-tools-service.js';
export { isDeferred, type DeferralPolicy } from './is-deferred.js';
export { TOOL_SEARCH_NAME } from './tool-search-name.js';
export { TOOL_SEARCH_PROMPT } from './prompt.js';
