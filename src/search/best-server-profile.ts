import type { SearchIndex } from './build-search-index.js';

/** The server whose profile best matches a query, and the bonus its tools get in the re-ranking. */
export type ServerProfileMatch = { readonly server: number; readonly bonus: number };

/**
 * Scores the index's server profiles for weighted query terms (term number → weight), each score
 * divided by the server's size to the power `serverProfileSizeExponent` (a big server's profile
 * matches more by its length alone), and returns the best server with `serverProfileWeight` times
 * that score; `undefined` when the weight is 0 or no profile matches. Ties go to the lower number.
 */
export function bestServerProfile(
  index: SearchIndex,
  queryTerms: ReadonlyMap<number, number>,
): ServerProfileMatch | undefined {
  const { serverProfileWeight, serverProfileSizeExponent } = index.parameters;
  const serverCount = index.serverStart.length - 1;
  if (serverProfileWeight <= 0 || serverCount <= 0) return undefined;
  const { start, servers, weights } = index.serverProfiles;
  const scores = new Float64Array(serverCount);
  for (const [term, weight] of queryTerms) {
    const to = start[term + 1] as number;
    for (let i = start[term] as number; i < to; i++) {
      const server = servers[i] as number;
      scores[server] = (scores[server] as number) + weight * (weights[i] as number);
    }
  }
  let best = -1;
  let bestScore = 0;
  for (let server = 0; server < serverCount; server++) {
    const size = (index.serverStart[server + 1] as number) - (index.serverStart[server] as number);
    const score = (scores[server] as number) / Math.pow(size, serverProfileSizeExponent);
    if (score > bestScore) {
      best = server;
      bestScore = score;
    }
  }
  return best < 0 ? undefined : { server: best, bonus: serverProfileWeight * bestScore };
}
