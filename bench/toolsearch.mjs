// Tool search benchmark: retrieval quality per slice on the dev queries, query latency at 6,569
// and 50,000 tools, index build time, and the size of the first request's tools[] with the
// catalog behind ToolSearch against all of it sent upfront. Run after `npm run build`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { buildSearchIndex } from '../dist/search/build-search-index.js';
import { searchTools } from '../dist/search/search-tools.js';
import { toolSearchTool } from '../dist/tools/tool-search/tool-search.js';
import { deferredToolsAnnouncement } from '../dist/tools/tool-search/deferred-tools-announcement.js';

const DATA = fileURLToPath(new URL('./data/toolsearch/', import.meta.url));

/** The BM25 reference from data/toolsearch/README.md: [Recall@5, hit@5, nDCG@10]. */
const REFERENCE = {
  'seal-tools single': [0.965, 0.965, 0.943],
  'seal-tools multi': [0.832, 0.997, 0.886],
  'bfcl single': [0.781, 0.781, 0.691],
  'bfcl multi': [0.733, 0.938, 0.761],
  'livemcpbench task': [0.292, 0.526, 0.297],
};

async function readJsonl(name) {
  const text = await readFile(`${DATA}${name}`, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

function descriptorOf(tool) {
  return {
    name: tool.id,
    description: tool.description ?? '',
    inputSchema: tool.input_schema,
    server: tool.server || undefined,
    toolName: tool.name || undefined,
  };
}

const round = (value, digits = 3) => Number(value.toFixed(digits));

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

function quality(index, queries) {
  const slices = new Map();
  let negatives = 0;
  let negativeFirst = 0;
  for (const query of queries) {
    const results = searchTools(index, query.query, { maxResults: 10 }).matches;
    if (query.kind === 'irrelevant-local') {
      negatives++;
      if (results.length > 0 && (query.negatives ?? []).includes(results[0])) negativeFirst++;
      continue;
    }
    const relevant = new Set(query.relevant);
    const found = results.slice(0, 5).filter((id) => relevant.has(id)).length;
    let dcg = 0;
    results.forEach((id, rank) => {
      if (relevant.has(id)) dcg += 1 / Math.log2(rank + 2);
    });
    let ideal = 0;
    for (let rank = 0; rank < Math.min(relevant.size, 10); rank++) ideal += 1 / Math.log2(rank + 2);
    const key = `${query.source} ${query.kind}`;
    const slice = slices.get(key) ?? { n: 0, recall: 0, hit: 0, ndcg: 0 };
    slice.n++;
    slice.recall += found / relevant.size;
    slice.hit += found > 0 ? 1 : 0;
    slice.ndcg += dcg / ideal;
    slices.set(key, slice);
  }
  const table = {};
  for (const [key, slice] of [...slices].sort(([a], [b]) => a.localeCompare(b))) {
    const reference = REFERENCE[key];
    table[key] = {
      n: slice.n,
      recall_at_5: round(slice.recall / slice.n),
      hit_at_5: round(slice.hit / slice.n),
      ndcg_at_10: round(slice.ndcg / slice.n),
      ...(reference && {
        reference_recall_at_5: reference[0],
        reference_hit_at_5: reference[1],
        reference_ndcg_at_10: reference[2],
      }),
    };
  }
  return { slices: table, hard_negatives: { n: negatives, negative_ranked_first: round(negativeFirst / negatives) } };
}

/** The catalog copied `copies` times with renamed ids (and servers), for the large-pool figures. */
function replicate(descriptors, total) {
  const out = [];
  for (let copy = 0; out.length < total; copy++) {
    for (const descriptor of descriptors) {
      if (out.length === total) break;
      if (copy === 0) {
        out.push(descriptor);
        continue;
      }
      const server = descriptor.server === undefined ? undefined : `${descriptor.server}_${copy}`;
      out.push({ ...descriptor, name: `${descriptor.name}_${copy}`, server });
    }
  }
  return out;
}

function timing(descriptors, queries) {
  let start = performance.now();
  const index = buildSearchIndex(descriptors);
  const buildMs = performance.now() - start;
  // Warm up once, then time every dev query.
  for (const query of queries.slice(0, 200)) searchTools(index, query.query, { maxResults: 5 });
  const times = [];
  for (const query of queries) {
    start = performance.now();
    searchTools(index, query.query, { maxResults: 5 });
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return {
    tools: descriptors.length,
    index_build_ms: round(buildMs, 1),
    query_median_us: round(percentile(times, 0.5), 1),
    query_p95_us: round(percentile(times, 0.95), 1),
  };
}

function requestSize(tools) {
  const all = tools.map((tool) => ({
    name: tool.id,
    description: tool.description ?? '',
    input_schema: tool.input_schema,
  }));
  const toolSearch = {
    name: toolSearchTool.name,
    description: toolSearchTool.prompt,
    input_schema: z.toJSONSchema(toolSearchTool.inputSchema),
  };
  const upfrontBytes = Buffer.byteLength(JSON.stringify(all));
  const deferredBytes = Buffer.byteLength(JSON.stringify([toolSearch]));
  const announcementBytes = Buffer.byteLength(deferredToolsAnnouncement(tools.map((tool) => tool.id)));
  return {
    all_upfront_bytes: upfrontBytes,
    all_upfront_tokens_approx: Math.round(upfrontBytes / 4),
    tool_search_only_bytes: deferredBytes,
    tool_search_only_tokens_approx: Math.round(deferredBytes / 4),
    announcement_bytes: announcementBytes,
    announcement_tokens_approx: Math.round(announcementBytes / 4),
    ratio_upfront_to_deferred_total: round(upfrontBytes / (deferredBytes + announcementBytes), 1),
  };
}

export async function run() {
  const tools = await readJsonl('tools.jsonl');
  const queries = await readJsonl('queries-dev.jsonl');
  const descriptors = tools.map(descriptorOf);
  const index = buildSearchIndex(descriptors);
  return {
    quality: quality(index, queries),
    latency: [timing(descriptors, queries), timing(replicate(descriptors, 50_000), queries)],
    first_request_tools: requestSize(tools),
    notes:
      'Quality on the dev queries over the whole catalog; reference = plain BM25 from data/toolsearch/README.md. Latency per query (maxResults 5), all 2,987 dev queries.',
  };
}
