import type { SearchIndex } from './build-search-index.js';
import { parseToolSearchQuery } from './parse-tool-search-query.js';
import { rankSearchIndex } from './rank-search-index.js';

/** What a search found. */
export type SearchToolsResult = {
  /** Tool names, best first (for `select:`, in the order named). */
  readonly matches: readonly string[];
  /** For `select:`, the names the index does not hold. */
  readonly unknownNames: readonly string[];
};

/** Options of {@link searchTools}. */
export type SearchToolsOptions = {
  /** At most this many matches (for `select:`, the names given all count). */
  readonly maxResults: number;
};

/**
 * Runs a ToolSearch query (`select:A,B`, `mcp__server` prefix, `+required` words, free keywords)
 * against an index. A name prefix that matches no tool is read as keywords instead, so
 * `mcp__slak send` still finds what the words find. This is the one ranking behind both the
 * ToolSearch tool and the `tool-search` command.
 */
export function searchTools(index: SearchIndex, query: string, options: SearchToolsOptions): SearchToolsResult {
  const parsed = parseToolSearchQuery(query);
  const maxResults = Math.max(0, Math.floor(options.maxResults));
  if (parsed.kind === 'select') {
    const matches: string[] = [];
    const unknownNames: string[] = [];
    for (const name of parsed.names) {
      const doc = index.exactNames.get(name.toLowerCase());
      if (doc === undefined) unknownNames.push(name);
      else if (matches.length < maxResults) matches.push(index.names[doc] as string);
    }
    return { matches, unknownNames };
  }
  const rank = (namePrefix: string | undefined): number[] =>
    rankSearchIndex(index, { text: parsed.text, required: parsed.required, namePrefix, maxResults });
  let docs: number[] = [];
  // `mcp__git` means the server git (`mcp__git__…`), not also github; a longer prefix is taken as is.
  const prefix = parsed.namePrefix;
  if (prefix !== undefined && /^mcp__(?:(?!__).)+$/i.test(prefix)) docs = rank(`${prefix}__`);
  if (docs.length === 0) docs = rank(prefix);
  if (docs.length === 0 && prefix !== undefined) {
    docs = rankSearchIndex(index, {
      text: `${prefix} ${parsed.text}`,
      required: parsed.required,
      maxResults,
    });
  }
  return { matches: docs.map((doc) => index.names[doc] as string), unknownNames: [] };
}
