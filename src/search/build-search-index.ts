import { descriptorFields, type ToolDescriptor } from './tool-descriptor.js';
import { DEFAULT_RANKING_PARAMETERS, type FieldParameters, type RankingParameters } from './ranking-parameters.js';
import { buildServerProfiles, type ServerProfiles } from './build-server-profiles.js';
import { GrowableTriples, toPostings } from './to-postings.js';
import { tokenize } from './tokenize.js';
import { groupByServer, nameLookups } from './index-lookups.js';

/**
 * A ranking index over tool descriptors: precomputed BM25F weights in flat posting lists, so a
 * query only adds up the postings of its terms. Immutable once built; rebuild it when the set of
 * tools changes (see `createSearchIndexCache`).
 */
export type SearchIndex = {
  readonly size: number;
  /** Tool names, by document number. */
  readonly names: readonly string[];
  readonly parameters: RankingParameters;
  /** Term (or `"a b"` phrase) → term number. */
  readonly terms: ReadonlyMap<string, number>;
  /** Postings of term t are `postingDocs/postingWeights[postingStart[t] .. postingStart[t+1]]`. */
  readonly postingStart: Int32Array;
  readonly postingDocs: Int32Array;
  readonly postingWeights: Float32Array;
  /** Server number of each tool, -1 for a tool without one. */
  readonly docServer: Int32Array;
  /** The tools of server s are `serverDocs[serverStart[s] .. serverStart[s+1]]`. */
  readonly serverStart: Int32Array;
  readonly serverDocs: Int32Array;
  /** Lower-case names, and the documents sorted by them (prefix lookups). */
  readonly lowerNames: readonly string[];
  readonly nameOrder: Int32Array;
  /** Lower-case name → first document with it. */
  readonly exactNames: ReadonlyMap<string, number>;
  /** What each server as a whole is about (see {@link ServerProfiles}). */
  readonly serverProfiles: ServerProfiles;
};

/** Options of {@link buildSearchIndex}. */
export type BuildSearchIndexOptions = {
  /** Ranking parameters; default {@link DEFAULT_RANKING_PARAMETERS}. */
  readonly parameters?: RankingParameters;
};

const FIELD_KEYS = ['name', 'server', 'hint', 'summary', 'description', 'parameters'] as const;
const FIELD_COUNT = FIELD_KEYS.length;
/** The fields a server profile is made of: short texts that say what each tool is for. */
const PROFILE_FIELDS = (['name', 'server', 'summary'] as const).map((key) => FIELD_KEYS.indexOf(key));

/** Builds the index for `descriptors` (in their order: ties rank the earlier tool first). */
export function buildSearchIndex(
  descriptors: readonly ToolDescriptor[],
  options: BuildSearchIndexOptions = {},
): SearchIndex {
  const parameters = options.parameters ?? DEFAULT_RANKING_PARAMETERS;
  const size = descriptors.length;
  const fieldTokens: string[][][] = [];
  // Many tools share texts (parameter descriptions such as "Repository owner"): tokenize each once.
  const tokenCache = new Map<string, string[]>();
  const tokenizeOnce = (text: string): string[] => {
    let tokens = tokenCache.get(text);
    if (tokens === undefined) {
      tokens = tokenize(text);
      tokenCache.set(text, tokens);
    }
    return tokens;
  };
  const lengthSums = new Float64Array(FIELD_COUNT);
  const filled = new Float64Array(FIELD_COUNT);
  const serverIds = new Map<string, number>();
  const docServer = new Int32Array(size).fill(-1);
  for (let doc = 0; doc < size; doc++) {
    const fields = descriptorFields(descriptors[doc] as ToolDescriptor);
    const tokens = FIELD_KEYS.map((key) => tokenizeOnce(fields[key]));
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = (tokens[f] as string[]).length;
      lengthSums[f] = (lengthSums[f] as number) + length;
      if (length > 0) filled[f] = (filled[f] as number) + 1;
    }
    fieldTokens.push(tokens);
    const serverKey = fields.server.toLowerCase();
    if (serverKey !== '') {
      let id = serverIds.get(serverKey);
      if (id === undefined) {
        id = serverIds.size;
        serverIds.set(serverKey, id);
      }
      docServer[doc] = id;
    }
  }
  const fieldParameters: FieldParameters[] = FIELD_KEYS.map((key) => parameters.fields[key]);
  // Average lengths over the tools that have the field: a hint few tools give is not "long" for them.
  const averages = Array.from(lengthSums, (sum, f) => Math.max(sum / Math.max(filled[f] as number, 1), 1e-9));

  const terms = new Map<string, number>();
  const termOf = (term: string): number => {
    let id = terms.get(term);
    if (id === undefined) {
      id = terms.size;
      terms.set(term, id);
    }
    return id;
  };

  // Pseudo term frequencies (BM25F): per-field counts, each normalised by its field's length.
  const docTriples = new GrowableTriples();
  for (let doc = 0; doc < size; doc++) {
    const tokens = fieldTokens[doc] as string[][];
    const pseudo = new Map<number, number>();
    const phrases = new Map<number, number>();
    for (let f = 0; f < FIELD_COUNT; f++) {
      const list = tokens[f] as string[];
      if (list.length === 0) continue;
      const { weight, b } = fieldParameters[f] as FieldParameters;
      const norm = weight / (1 - b + (b * list.length) / (averages[f] as number));
      for (const token of list) {
        const id = termOf(token);
        pseudo.set(id, (pseudo.get(id) ?? 0) + norm);
      }
      if (parameters.phraseWeight > 0 && (FIELD_KEYS[f] === 'name' || FIELD_KEYS[f] === 'description')) {
        for (let i = 0; i + 1 < list.length; i++) {
          const id = termOf(`${list[i] as string} ${list[i + 1] as string}`);
          phrases.set(id, 1);
        }
      }
    }
    for (const [id, tf] of pseudo) docTriples.push(id, doc, tf);
    for (const [id] of phrases) if (!pseudo.has(id)) docTriples.push(id, doc, -1);
  }

  const termCount = terms.size;
  const posting = toPostings({
    triples: docTriples,
    termCount,
    documentCount: size,
    weight: (tf) => (tf < 0 ? parameters.phraseWeight : tf / (parameters.k1 + tf)),
  });

  const { serverStart, serverDocs } = groupByServer(docServer, serverIds.size);

  const serverProfiles = buildServerProfiles({
    fieldTokens,
    profileFields: PROFILE_FIELDS,
    docServer,
    serverCount: serverIds.size,
    terms,
    termCount,
    parameters,
  });

  const names = descriptors.map((descriptor) => descriptor.name);
  const { lowerNames, nameOrder, exactNames } = nameLookups(names);

  return {
    size,
    names,
    parameters,
    terms,
    postingStart: posting.start,
    postingDocs: posting.ids,
    postingWeights: posting.weights,
    docServer,
    serverStart,
    serverDocs,
    lowerNames,
    nameOrder,
    exactNames,
    serverProfiles,
  };
}
