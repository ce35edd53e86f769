import type { AnyTool } from '../contract/tool.js';
import { buildSearchIndex, type SearchIndex } from './build-search-index.js';
import { describeToolForSearch } from './describe-tool.js';
import type { RankingParameters } from './ranking-parameters.js';

/** Holds the search index of the current deferred tools, rebuilt only when that set changes. */
export type SearchIndexCache = {
  /** The index for `tools`: the cached one when they are the same tool objects in the same order. */
  indexFor(tools: readonly AnyTool[]): SearchIndex;
};

/** Options of {@link createSearchIndexCache}. */
export type SearchIndexCacheOptions = {
  readonly parameters?: RankingParameters;
};

/**
 * Creates a cache that builds the index once per deferred set (a full rebuild of 6,569 tools
 * takes a few hundred ms; checking that the set is unchanged is one pass over the list).
 */
export function createSearchIndexCache(options: SearchIndexCacheOptions = {}): SearchIndexCache {
  let tools: readonly AnyTool[] = [];
  let index: SearchIndex | undefined;
  return {
    indexFor(current) {
      if (index === undefined || !sameTools(tools, current)) {
        index = buildSearchIndex(
          current.map(describeToolForSearch),
          options.parameters === undefined ? {} : { parameters: options.parameters },
        );
        tools = [...current];
      }
      return index;
    },
  };
}

function sameTools(left: readonly AnyTool[], right: readonly AnyTool[]): boolean {
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return false;
  return true;
}
