import type { RankingParameters } from './ranking-parameters.js';
import { GrowableTriples, toPostings } from './to-postings.js';

/**
 * One text per server, made of its tools' names, server name and first sentences, indexed as
 * BM25 postings over servers: what a server as a whole is about, which a task needing several of
 * its tools may match better than any one tool.
 */
export type ServerProfiles = {
  /** Postings of term t are `servers/weights[start[t] .. start[t+1]]` (idf over servers). */
  readonly start: Int32Array;
  readonly servers: Int32Array;
  readonly weights: Float32Array;
};

/** The profile fields' positions in a tool's field list. */
export type ProfileFieldIndexes = readonly number[];

/** How much of a profile's length counts in its normalisation (BM25's b). */
const PROFILE_LENGTH_NORMALISATION = 0.75;

/**
 * Builds the server profiles from each tool's tokenized fields (only `profileFields` of them),
 * with the index's term numbers (`terms`); tools without a server (`docServer` -1) take no part.
 */
export function buildServerProfiles(options: {
  readonly fieldTokens: readonly (readonly (readonly string[])[])[];
  readonly profileFields: ProfileFieldIndexes;
  readonly docServer: Int32Array;
  readonly serverCount: number;
  readonly terms: ReadonlyMap<string, number>;
  readonly termCount: number;
  readonly parameters: RankingParameters;
}): ServerProfiles {
  const { fieldTokens, profileFields, docServer, serverCount, terms, parameters } = options;
  const counts: Map<number, number>[] = Array.from({ length: serverCount }, () => new Map());
  const lengths = new Float64Array(serverCount);
  fieldTokens.forEach((fields, doc) => {
    const server = docServer[doc] as number;
    if (server < 0) return;
    const count = counts[server] as Map<number, number>;
    for (const f of profileFields) {
      for (const token of fields[f] ?? []) {
        const id = terms.get(token);
        if (id === undefined) continue;
        count.set(id, (count.get(id) ?? 0) + 1);
        lengths[server] = (lengths[server] as number) + 1;
      }
    }
  });
  let total = 0;
  for (const length of lengths) total += length;
  const average = Math.max(total / Math.max(serverCount, 1), 1e-9);
  const b = PROFILE_LENGTH_NORMALISATION;
  const triples = new GrowableTriples();
  counts.forEach((count, server) => {
    const norm = 1 / (1 - b + (b * (lengths[server] as number)) / average);
    for (const [id, tf] of count) triples.push(id, server, tf * norm);
  });
  const postings = toPostings({
    triples,
    termCount: options.termCount,
    documentCount: serverCount,
    weight: (tf) => tf / (parameters.k1 + tf),
  });
  return { start: postings.start, servers: postings.ids, weights: postings.weights };
}
