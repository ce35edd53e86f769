import type { AnyTool } from '../contract/tool.js';
import { createSearchIndexCache, type SearchIndexCacheOptions } from './search-index-cache.js';
import { searchTools, type SearchToolsResult } from './search-tools.js';

/** Ranks a set of deferred tools for a ToolSearch query. */
export type DeferredToolSearch = (tools: readonly AnyTool[], query: string, maxResults: number) => SearchToolsResult;

/**
 * The ranking a host hands to the ToolSearch tool (through its service): the index is built once
 * per deferred set and reused while the set is unchanged.
 */
export function createDeferredToolSearch(options: SearchIndexCacheOptions = {}): DeferredToolSearch {
  const cache = createSearchIndexCache(options);
  return (tools, query, maxResults) => searchTools(cache.indexFor(tools), query, { maxResults });
}
