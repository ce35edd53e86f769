// Cold start (issue 13): from process start to the first model request arriving at a mock server
// on 127.0.0.1, headless (`toolplane -p hi`), with a settings-free temporary HOME and working
// folder; beside it, in the same run and alternated with it, bare Node sending one request with
// `fetch`, and `node -e 0`. Medians of 9. Set TOOLPLANE_BENCH_BASE to a built checkout to measure
// its command too. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/bin/toolplane.js', import.meta.url));
const RUNS = 9;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function startServer() {
  const waiting = [];
  const server = createServer((request, response) => {
    waiting.shift()?.(performance.now());
    request.resume();
    // An error answer makes the command exit at once; only the arrival time matters.
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bench' } }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        nextArrival: () => new Promise((arrived) => waiting.push(arrived)),
        close: () => new Promise((closed) => server.close(closed)),
      }),
    ),
  );
}

const CPU_PROBE = fileURLToPath(new URL('./lib/cpu-at-first-connect.cjs', import.meta.url));

/**
 * Spawns `args` and resolves with the wall time to the first request (or to exit, when `arrival`
 * is absent) and, with `arrival`, the CPU time the process had used when it opened its socket.
 */
async function timeOne(args, { home, arrival }) {
  const started = performance.now();
  const child = spawn(process.execPath, arrival ? ['--require', CPU_PROBE, ...args] : args, {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: arrival?.url },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const closed = new Promise((resolve) => child.on('close', () => resolve(performance.now())));
  const at = arrival ? await arrival.next : await closed;
  await closed;
  const cpu = /toolplane-bench-cpu-ms ([\d.]+)/.exec(stderr);
  return { wall: at - started, cpu: cpu ? Number(cpu[1]) : undefined };
}

function mediansOf(table) {
  return Object.fromEntries(Object.entries(table).map(([name, times]) => [name, Number(median(times).toFixed(1))]));
}

export async function run() {
  const home = await mkdtemp(join(tmpdir(), 'toolplane-bench-cold-'));
  const server = await startServer();
  const base = process.env.TOOLPLANE_BENCH_BASE;
  const commands = {
    toolplane: [CLI, '-p', 'hi'],
    bare_node_fetch: [
      '-e',
      `fetch(${JSON.stringify(server.url)}, { method: 'POST', body: '{}' }).then((r) => r.text())`,
    ],
    ...(base ? { base_toolplane: [join(base, 'dist/bin/toolplane.js'), '-p', 'hi'] } : {}),
  };
  const wall = Object.fromEntries([...Object.keys(commands), 'node_e_0'].map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  try {
    // One warm-up round (disk cache, and the code cache a first run writes), not counted.
    for (let round = -1; round < RUNS; round += 1) {
      for (const [name, args] of Object.entries(commands)) {
        // A home per command: two builds sharing one would replace each other's code cache each run.
        const own = join(home, name);
        await mkdir(own, { recursive: true });
        const time = await timeOne(args, { home: own, arrival: { url: server.url, next: server.nextArrival() } });
        if (round < 0) continue;
        wall[name].push(time.wall);
        if (time.cpu !== undefined) cpu[name].push(time.cpu);
      }
      const idle = await timeOne(['-e', '0'], { home });
      if (round >= 0) wall.node_e_0.push(idle.wall);
    }
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  const medians = mediansOf(wall);
  const cpuMedians = mediansOf(cpu);
  return {
    'cli.cold_start_to_first_request_ms_median': medians.toolplane,
    bare_node_fetch_to_first_request_ms_median: medians.bare_node_fetch,
    node_e_0_to_exit_ms_median: medians.node_e_0,
    ...(base ? { 'base_cli.cold_start_to_first_request_ms_median': medians.base_toolplane } : {}),
    ratio_to_bare_node_fetch: Number((medians.toolplane / medians.bare_node_fetch).toFixed(2)),
    cpu_ms_to_first_connect_median: cpuMedians,
    cpu_ratio_to_bare_node_fetch: Number((cpuMedians.toolplane / cpuMedians.bare_node_fetch).toFixed(2)),
    runs: RUNS,
    target: 'at most 2x bare Node fetch',
  };
}
