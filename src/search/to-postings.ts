/** Flat, growable (term, document, value) triples. */
export class GrowableTriples {
  length = 0;
  terms = new Int32Array(1024);
  ids = new Int32Array(1024);
  values = new Float64Array(1024);

  push(term: number, id: number, value: number): void {
    if (this.length === this.terms.length) {
      const capacity = this.length * 2;
      this.terms = grow(this.terms, new Int32Array(capacity));
      this.ids = grow(this.ids, new Int32Array(capacity));
      this.values = grow(this.values, new Float64Array(capacity));
    }
    this.terms[this.length] = term;
    this.ids[this.length] = id;
    this.values[this.length] = value;
    this.length++;
  }
}

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * Groups triples by term (counting sort) and turns each value into idf × `weight(value)`, the idf
 * taken over `documentCount` documents. Within a term, ids keep the order they were pushed in.
 */
export function toPostings(options: {
  readonly triples: GrowableTriples;
  readonly termCount: number;
  readonly documentCount: number;
  readonly weight: (value: number) => number;
}): { start: Int32Array; ids: Int32Array; weights: Float32Array } {
  const { triples, termCount, documentCount } = options;
  const start = new Int32Array(termCount + 1);
  for (let i = 0; i < triples.length; i++) {
    const slot = (triples.terms[i] as number) + 1;
    start[slot] = (start[slot] as number) + 1;
  }
  for (let t = 0; t < termCount; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
  const cursor = start.slice(0, termCount);
  const ids = new Int32Array(triples.length);
  const weights = new Float32Array(triples.length);
  for (let i = 0; i < triples.length; i++) {
    const term = triples.terms[i] as number;
    const at = cursor[term] as number;
    cursor[term] = at + 1;
    ids[at] = triples.ids[i] as number;
    weights[at] = options.weight(triples.values[i] as number);
  }
  for (let t = 0; t < termCount; t++) {
    const from = start[t] as number;
    const to = start[t + 1] as number;
    const df = to - from;
    if (df === 0) continue;
    const idf = Math.log(1 + (documentCount - df + 0.5) / (df + 0.5));
    for (let i = from; i < to; i++) weights[i] = (weights[i] as number) * idf;
  }
  return { start, ids, weights };
}
