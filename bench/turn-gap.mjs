// The turn gap against the history's size (issue 13): from the mock server finishing a response
// to the next request arriving on the wire, with a 1, 5, 10 and 20 MB history, through the real
// loop (query) and the Anthropic provider against a server that speaks the Messages API's SSE.
// Each size starts from a history of that size and runs 12 turns (a small Read each); figures are
// medians of the 11 gaps: to the request's headers, the process's CPU time in that gap (less
// sensitive to a busy machine), and to the whole body. Set TOOLPLANE_BENCH_BASE to a built
// checkout (e.g. an older commit's) to measure it too, in the same run. Run after `npm run build`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SIZES_MB = [1, 5, 10, 20];
const CHILD = fileURLToPath(new URL('./lib/turn-gap-child.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));

async function measure(dist) {
  const { stdout } = await promisify(execFile)(process.execPath, [CHILD, dist, ...SIZES_MB.map(String)], {
    maxBuffer: 1 << 20,
  });
  const figures = JSON.parse(stdout);
  const first = figures[`${SIZES_MB[0]}MB`];
  const last = figures[`${SIZES_MB.at(-1)}MB`];
  const ratio = (key) => Number((last[key] / first[key]).toFixed(2));
  return {
    ...figures,
    ratio_20MB_to_1MB: ratio('gap_to_request_ms_median'),
    cpu_ratio_20MB_to_1MB: ratio('gap_cpu_ms_median'),
  };
}

export async function run() {
  const base = process.env.TOOLPLANE_BENCH_BASE;
  const results = { this_tree: await measure(DIST) };
  if (base) results.base = { path: base, ...(await measure(join(base, 'dist'))) };
  return { ...results, target: '20 MB at most 1.5x the 1 MB figure; under 10 ms at 10 MB' };
}
