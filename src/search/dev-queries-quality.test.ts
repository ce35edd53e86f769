import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from './build-search-index.js';
import { searchTools } from './search-tools.js';
import type { ToolDescriptor } from './tool-descriptor.js';

// Retrieval quality on the benchmark's dev queries over the whole catalog (a quality check, not a
// timing one). The floors are the plain-BM25 reference of bench/data/toolsearch/README.md.
const DATA = fileURLToPath(new URL('../../bench/data/toolsearch/', import.meta.url));

type Slice = { recall: number; hit: number; ndcg: number };

/** [Recall@5, hit@5, nDCG@10] of the README's BM25 reference. */
const REFERENCE: Record<string, readonly [number, number, number]> = {
  'seal-tools single': [0.965, 0.965, 0.943],
  'seal-tools multi': [0.832, 0.997, 0.886],
  'bfcl single': [0.781, 0.781, 0.691],
  'bfcl multi': [0.733, 0.938, 0.761],
};

/**
 * LiveMCPBench: the floor is just under the ranking's figures (Recall@5 0.359, hit@5 0.579, nDCG@10
 * 0.350), all above the reference (0.292, 0.526, 0.297), so a regression there shows.
 */
const LIVEMCPBENCH_FLOOR: readonly [number, number, number] = [0.355, 0.575, 0.345];

async function readJsonl(name: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(`${DATA}${name}`, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('ranking quality on the dev queries', () => {
  it('stays at or above the BM25 reference on every slice', async () => {
    const tools = await readJsonl('tools.jsonl');
    const queries = await readJsonl('queries-dev.jsonl');
    const descriptors: ToolDescriptor[] = tools.map((tool) => ({
      name: tool['id'] as string,
      description: (tool['description'] as string | undefined) ?? '',
      inputSchema: tool['input_schema'] as Record<string, unknown>,
      server: (tool['server'] as string) || undefined,
      toolName: tool['name'] as string,
    }));
    const index = buildSearchIndex(descriptors);
    const sums = new Map<string, Slice & { n: number }>();
    for (const query of queries) {
      if (query['kind'] === 'irrelevant-local') continue;
      const relevant = new Set(query['relevant'] as string[]);
      const results = searchTools(index, query['query'] as string, { maxResults: 10 }).matches;
      const found = results.slice(0, 5).filter((id) => relevant.has(id)).length;
      let dcg = 0;
      results.forEach((id, rank) => {
        if (relevant.has(id)) dcg += 1 / Math.log2(rank + 2);
      });
      let ideal = 0;
      for (let rank = 0; rank < Math.min(relevant.size, 10); rank++) ideal += 1 / Math.log2(rank + 2);
      const key = `${query['source'] as string} ${query['kind'] as string}`;
      const sum = sums.get(key) ?? { n: 0, recall: 0, hit: 0, ndcg: 0 };
      sums.set(key, {
        n: sum.n + 1,
        recall: sum.recall + found / relevant.size,
        hit: sum.hit + (found > 0 ? 1 : 0),
        ndcg: sum.ndcg + dcg / ideal,
      });
    }
    const floors = new Map(Object.entries(REFERENCE));
    floors.set('livemcpbench task', LIVEMCPBENCH_FLOOR);
    expect([...sums.keys()].sort()).toEqual([...floors.keys()].sort());
    for (const [key, [recall, hit, ndcg]] of floors) {
      const sum = sums.get(key) as Slice & { n: number };
      const scores = { slice: key, recall: sum.recall / sum.n, hit: sum.hit / sum.n, ndcg: sum.ndcg / sum.n };
      expect(scores.recall, key).toBeGreaterThanOrEqual(recall);
      expect(scores.hit, key).toBeGreaterThanOrEqual(hit);
      expect(scores.ndcg, key).toBeGreaterThanOrEqual(ndcg);
    }
  });
});
