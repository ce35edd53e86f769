/** The weight of one ranking field and its length normalisation (BM25's b, 0 = none, 1 = full). */
export type FieldParameters = { readonly weight: number; readonly b: number };

/**
 * The general parameters of the ranking (BM25F fields, then a re-ranking for multi-need queries).
 * The defaults were chosen by trying a handful of values of these numbers against the benchmark's
 * development queries as a whole; no word lists, synonyms or per-query data are involved.
 */
export type RankingParameters = {
  /** Term-frequency saturation of tools. */
  readonly k1: number;
  /** Saturation of a word repeated in the query (BM25's k3). */
  readonly queryK: number;
  readonly fields: {
    /** The tool's own name, split into words. */
    readonly name: FieldParameters;
    /** The server (or group) it comes from. */
    readonly server: FieldParameters;
    /** The author's search hint: weighted above the description, first sentence included. */
    readonly hint: FieldParameters;
    /** The description's first sentence, counted again on top of the description. */
    readonly summary: FieldParameters;
    readonly description: FieldParameters;
    /** Parameter names, descriptions and enum values. */
    readonly parameters: FieldParameters;
  };
  /** Weight of a query word written with a capital letter, other than at a sentence start. */
  readonly capitalizedWordWeight: number;
  /** Weight of a query word that is part of a file path or URL. */
  readonly pathTermWeight: number;
  /** Weight of a query term made only of digits: a date, an amount or a count is a value, not a need. */
  readonly numberTermWeight: number;
  /** A file path in the query says a file is involved: it adds the term "file" with this weight. */
  readonly pathFileWeight: number;
  /** Weight of a pair of adjacent query words found adjacent in a tool's name or description. */
  readonly phraseWeight: number;
  /**
   * Tools of one server are often used together: in the re-ranking, the other tools of a server
   * already picked get this share of that pick's score, divided by the server's size to the power
   * `siblingSizeExponent` (a large group says less about any one of its tools).
   */
  readonly siblingWeight: number;
  readonly siblingSizeExponent: number;
  /** The servers of this many best-scoring tools bring all their tools into the re-ranking. */
  readonly siblingDepth: number;
  /**
   * Multi-need queries: a query term's part of a tool's score is multiplied by this once per
   * better-ranked result that already matched the term (1 = plain score order).
   */
  readonly coverageDiscount: number;
  /** How many of the best-scoring tools the coverage re-ranking reorders. */
  readonly rerankDepth: number;
  /**
   * A task may need several tools of one server, none of which matches it well alone: the server
   * whose profile (see `ServerProfiles`) best matches the query, its profile score divided by its
   * size to the power `serverProfileSizeExponent`, brings all its tools into the re-ranking, where
   * each gets this share of that score from the second pick on (the first pick is left to the
   * tools' own scores). Tools without a server are ranked as before.
   */
  readonly serverProfileWeight: number;
  readonly serverProfileSizeExponent: number;
};

/** The ranking's defaults. */
export const DEFAULT_RANKING_PARAMETERS: RankingParameters = Object.freeze({
  k1: 1.2,
  queryK: 2,
  fields: Object.freeze({
    name: Object.freeze({ weight: 3, b: 0.5 }),
    server: Object.freeze({ weight: 1, b: 0.5 }),
    hint: Object.freeze({ weight: 4, b: 0.5 }),
    summary: Object.freeze({ weight: 2, b: 0.5 }),
    description: Object.freeze({ weight: 1, b: 0.75 }),
    parameters: Object.freeze({ weight: 0.5, b: 0.75 }),
  }),
  capitalizedWordWeight: 1.5,
  pathTermWeight: 0.3,
  numberTermWeight: 0.3,
  pathFileWeight: 0.5,
  phraseWeight: 0.3,
  siblingWeight: 0.6,
  siblingSizeExponent: 0.5,
  siblingDepth: 3,
  coverageDiscount: 0.85,
  rerankDepth: 20,
  serverProfileWeight: 0.5,
  serverProfileSizeExponent: 0.7,
});
