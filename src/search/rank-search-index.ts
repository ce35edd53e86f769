import type { SearchIndex } from './build-search-index.js';
import { bestServerProfile, type ServerProfileMatch } from './best-server-profile.js';
import { isOpaqueData } from './is-opaque-data.js';
import { tokenize } from './tokenize.js';

/** One ranking request against a {@link SearchIndex}. */
export type RankRequest = {
  /** Free keywords that score tools. */
  readonly text: string;
  /** Words every result must contain (in any field); they also score. */
  readonly required?: readonly string[];
  /** Only tools whose name starts with this (case-insensitive). */
  readonly namePrefix?: string;
  readonly maxResults: number;
};

type Scratch = { scores: Float64Array; touched: Int32Array; marks: Uint8Array; count: Int32Array };
const scratchByIndex = new WeakMap<SearchIndex, Scratch>();

function scratchFor(index: SearchIndex): Scratch {
  let scratch = scratchByIndex.get(index);
  if (scratch === undefined) {
    scratch = {
      scores: new Float64Array(index.size),
      touched: new Int32Array(index.size),
      marks: new Uint8Array(index.size),
      count: new Int32Array(index.size),
    };
    scratchByIndex.set(index, scratch);
  }
  return scratch;
}

/**
 * Ranks the index's tools for a request and returns document numbers, best first. Tools named
 * exactly by the query come first (see `exactNameMatches`); then BM25F scores (plus the server-level
 * and phrase parts), ties in index order. Tools that match no word are left out, except under a
 * name prefix, which keeps every tool under it (that passes the required words). Synchronous; the
 * scratch buffers are reused across queries.
 */
export function rankSearchIndex(index: SearchIndex, request: RankRequest): number[] {
  const limit = Math.max(0, Math.floor(request.maxResults));
  if (limit === 0 || index.size === 0) return [];
  const allowed = allowedDocuments(index, request);
  if (allowed !== undefined && allowed.length === 0) return [];

  const queryTerms = weightedQueryTerms(index, request);
  const scratch = scratchFor(index);
  const { scores, touched, marks } = scratch;
  const { postingStart, postingDocs, postingWeights } = index;
  let touchedCount = 0;
  for (const [term, weight] of queryTerms) {
    const to = postingStart[term + 1] as number;
    for (let i = postingStart[term] as number; i < to; i++) {
      const doc = postingDocs[i] as number;
      if (marks[doc] === 0) {
        marks[doc] = 1;
        touched[touchedCount++] = doc;
      }
      scores[doc] = (scores[doc] as number) + weight * (postingWeights[i] as number);
    }
  }

  // A name prefix keeps every tool under it (ranked); otherwise only tools that matched a word.
  let candidates: ArrayLike<number>;
  if (allowed === undefined) candidates = touched.subarray(0, touchedCount);
  else if (request.namePrefix !== undefined) candidates = allowed;
  else candidates = allowed.filter((doc) => marks[doc] === 1);
  const discount = index.parameters.coverageDiscount;
  let ranked: number[];
  if (discount < 1 && queryTerms.size > 1 && limit > 1) {
    const pool = topDocuments(candidates, scores, Math.max(limit, index.parameters.rerankDepth));
    const profile = allowed === undefined ? bestServerProfile(index, queryTerms) : undefined;
    if (allowed === undefined) addSiblings(index, pool, profile?.server);
    ranked = diversify({ index, pool, queryTerms, scores, limit, discount, profile });
  } else {
    ranked = topDocuments(candidates, scores, limit);
  }
  for (let i = 0; i < touchedCount; i++) {
    const doc = touched[i] as number;
    scores[doc] = 0;
    marks[doc] = 0;
  }
  const exact = exactNameMatches(index, request.text).filter((doc) => allowed === undefined || allowed.includes(doc));
  if (exact.length === 0) return ranked;
  return [...exact, ...ranked.filter((doc) => !exact.includes(doc))].slice(0, limit);
}

const IDENTIFIER_SHAPE = /[_-]|\p{Ll}\p{Lu}/u;

/**
 * Tools named exactly by the query: the whole query, or any word of it shaped like an identifier
 * (`get_weather`, `sendMessage`). A plain word such as "predict" does not count, so prose that
 * happens to contain a short tool name is still ranked on its merits.
 */
function exactNameMatches(index: SearchIndex, text: string): number[] {
  const docs: number[] = [];
  const whole = index.exactNames.get(text.trim().toLowerCase());
  if (whole !== undefined) docs.push(whole);
  for (const word of text.split(/\s+/)) {
    const trimmed = word.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, '');
    if (!IDENTIFIER_SHAPE.test(trimmed)) continue;
    const doc = index.exactNames.get(trimmed.toLowerCase());
    if (doc !== undefined && !docs.includes(doc)) docs.push(doc);
  }
  return docs;
}

const PATH_LIKE = /[\\/]\S*[\\/.]|:\/\//;
const DIGITS = /^\d+$/;
const FILE_TERM = tokenize('file')[0] as string;

/** Query terms (with phrases) → their weight, repeats saturated by `queryK`. Unknown terms drop out. */
function weightedQueryTerms(index: SearchIndex, request: RankRequest): Map<number, number> {
  const words: string[] = [];
  const counts = new Map<number, number>();
  const add = (term: string, amount: number): void => {
    const id = index.terms.get(term);
    if (id !== undefined && amount > 0) counts.set(id, (counts.get(id) ?? 0) + amount);
  };
  // Folder names inside a path or URL say little about the tool wanted; they count for less.
  // A capitalized word inside a sentence is usually a name (a product, a service, a format).
  let sentenceStart = true;
  for (const chunk of request.text.split(/\s+/)) {
    // Pasted data (a base64 image, a key) is not words: its fragments would match names at random.
    if (isOpaqueData(chunk)) continue;
    const isPath = PATH_LIKE.test(chunk);
    const cap = !sentenceStart && /\p{Lu}/u.test(chunk) ? index.parameters.capitalizedWordWeight : 1;
    sentenceStart = /[.!?]$/.test(chunk);
    for (const term of tokenize(chunk)) {
      const number = DIGITS.test(term) ? index.parameters.numberTermWeight : 1;
      add(term, (isPath ? index.parameters.pathTermWeight : 1) * cap * number);
      if (!isPath) words.push(term);
    }
    if (isPath) add(FILE_TERM, index.parameters.pathFileWeight);
  }
  for (const word of request.required ?? []) for (const term of tokenize(word)) add(term, 1);
  if (index.parameters.phraseWeight > 0) {
    for (let i = 0; i + 1 < words.length; i++) add(`${words[i] as string} ${words[i + 1] as string}`, 1);
  }
  const k = index.parameters.queryK;
  for (const [id, count] of counts) counts.set(id, ((k + 1) * count) / (k + count));
  return counts;
}

/** Documents allowed by the name prefix and the required words; `undefined` when unrestricted. */
function allowedDocuments(index: SearchIndex, request: RankRequest): number[] | undefined {
  let allowed: number[] | undefined;
  if (request.namePrefix !== undefined) allowed = documentsWithPrefix(index, request.namePrefix.toLowerCase());
  const required = request.required ?? [];
  if (required.length === 0) return allowed;
  const scratch = scratchFor(index);
  const { count } = scratch;
  const hits: number[] = [];
  let needed = 0;
  for (const word of required) {
    const terms = tokenize(word);
    for (const term of terms) {
      needed++;
      const id = index.terms.get(term);
      if (id === undefined) {
        for (const doc of hits) count[doc] = 0;
        return [];
      }
      const to = index.postingStart[id + 1] as number;
      for (let i = index.postingStart[id] as number; i < to; i++) {
        const doc = index.postingDocs[i] as number;
        if (count[doc] === needed - 1) {
          if (needed === 1) hits.push(doc);
          count[doc] = needed;
        }
      }
    }
  }
  const passing = hits.filter((doc) => count[doc] === needed);
  for (const doc of hits) count[doc] = 0;
  if (needed === 0) return allowed;
  if (allowed === undefined) return passing;
  const inPrefix = new Set(allowed);
  return passing.filter((doc) => inPrefix.has(doc));
}

function documentsWithPrefix(index: SearchIndex, prefix: string): number[] {
  const { nameOrder, lowerNames } = index;
  let low = 0;
  let high = nameOrder.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lowerNames[nameOrder[middle] as number] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  const docs: number[] = [];
  for (let i = low; i < nameOrder.length; i++) {
    const doc = nameOrder[i] as number;
    if (!(lowerNames[doc] as string).startsWith(prefix)) break;
    docs.push(doc);
  }
  return docs.sort((a, b) => a - b);
}

/** The `limit` best documents by score, ties to the lower document number. */
function topDocuments(candidates: ArrayLike<number>, scores: Float64Array, limit: number): number[] {
  const better = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa > sb || (sa === sb && a < b);
  };
  if (limit >= 64 || candidates.length <= limit) {
    return Array.from(candidates)
      .sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0))
      .slice(0, limit);
  }
  const top: number[] = [];
  let floor = -Infinity;
  for (let c = 0; c < candidates.length; c++) {
    const doc = candidates[c] as number;
    // Most candidates score below the current k-th best: one comparison rejects them.
    if (top.length === limit && (scores[doc] as number) < floor) continue;
    if (top.length === limit && !better(doc, top[limit - 1] as number)) continue;
    let at = top.length === limit ? limit - 1 : top.length;
    if (top.length < limit) top.push(doc);
    while (at > 0 && better(doc, top[at - 1] as number)) {
      top[at] = top[at - 1] as number;
      at--;
    }
    top[at] = doc;
    if (top.length === limit) floor = scores[top[limit - 1] as number] as number;
  }
  return top;
}

/**
 * Adds to `pool` the other tools of the servers of its best few tools (see `siblingDepth`) and
 * those of `profileServer`.
 */
function addSiblings(index: SearchIndex, pool: number[], profileServer: number | undefined): void {
  const { siblingDepth } = index.parameters;
  if (index.serverDocs.length === 0) return;
  const present = new Set(pool);
  const servers = new Set<number>();
  if (index.parameters.siblingWeight > 0) {
    for (let i = 0; i < Math.min(siblingDepth, pool.length); i++) {
      const server = index.docServer[pool[i] as number] as number;
      if (server >= 0) servers.add(server);
    }
  }
  if (profileServer !== undefined) servers.add(profileServer);
  for (const server of servers) {
    const to = index.serverStart[server + 1] as number;
    for (let i = index.serverStart[server] as number; i < to; i++) {
      const doc = index.serverDocs[i] as number;
      if (!present.has(doc)) {
        present.add(doc);
        pool.push(doc);
      }
    }
  }
}

/**
 * Greedy re-ranking for queries that ask for several things at once: each pick is the tool with
 * the most score left after every query term's part is multiplied by `discount` once per earlier
 * pick that also matched it, plus a share of the best earlier pick from the same server (tools of
 * one server are used together) and, after the first pick, the bonus of the best-matching server
 * profile. The first pick is always the best-scoring tool.
 */
function diversify(options: {
  readonly index: SearchIndex;
  readonly pool: readonly number[];
  readonly queryTerms: ReadonlyMap<number, number>;
  readonly scores: Float64Array;
  readonly limit: number;
  readonly discount: number;
  readonly profile: ServerProfileMatch | undefined;
}): number[] {
  const { index, pool, queryTerms, scores, limit, discount, profile } = options;
  const termList = [...queryTerms];
  const width = termList.length;
  // parts[p * width + j]: what term j adds to pooled tool p.
  const parts = new Float64Array(pool.length * width);
  const rest = new Float64Array(pool.length);
  for (let j = 0; j < width; j++) {
    const [term, weight] = termList[j] as [number, number];
    const from = index.postingStart[term] as number;
    const to = index.postingStart[term + 1] as number;
    for (let p = 0; p < pool.length; p++) {
      const at = findPosting(index.postingDocs, from, to, pool[p] as number);
      if (at >= 0) parts[p * width + j] = weight * (index.postingWeights[at] as number);
    }
  }
  for (let p = 0; p < pool.length; p++) {
    let sum = 0;
    for (let j = 0; j < width; j++) sum += parts[p * width + j] as number;
    rest[p] = (scores[pool[p] as number] as number) - sum;
  }
  const factors = new Float64Array(width).fill(1);
  const taken = new Uint8Array(pool.length);
  const { siblingWeight, siblingSizeExponent } = index.parameters;
  // server → share of its best pick that each of its other tools gets
  const siblingBonus = new Map<number, number>();
  const ranked: number[] = [];
  while (ranked.length < limit && ranked.length < pool.length) {
    let best = -1;
    let bestValue = -Infinity;
    for (let p = 0; p < pool.length; p++) {
      if (taken[p] === 1) continue;
      let value = rest[p] as number;
      for (let j = 0; j < width; j++) value += (parts[p * width + j] as number) * (factors[j] as number);
      const server = index.docServer[pool[p] as number] as number;
      if (server >= 0) value += siblingBonus.get(server) ?? 0;
      if (server === profile?.server && ranked.length > 0) value += profile.bonus;
      if (value > bestValue) {
        bestValue = value;
        best = p;
      }
    }
    taken[best] = 1;
    const doc = pool[best] as number;
    ranked.push(doc);
    const server = index.docServer[doc] as number;
    if (server >= 0 && !siblingBonus.has(server)) {
      const size = (index.serverStart[server + 1] as number) - (index.serverStart[server] as number);
      siblingBonus.set(server, (siblingWeight * (scores[doc] as number)) / Math.pow(size, siblingSizeExponent));
    }
    for (let j = 0; j < width; j++)
      if ((parts[best * width + j] as number) > 0) factors[j] = (factors[j] as number) * discount;
  }
  return ranked;
}

/** Position of `doc` in the sorted postings `docs[from..to)`, or -1. */
function findPosting(docs: Int32Array, from: number, to: number, doc: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = docs[middle] as number;
    if (value === doc) return middle;
    if (value < doc) low = middle + 1;
    else high = middle;
  }
  return -1;
}
