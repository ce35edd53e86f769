// Cold start (issue: the toolplane command): from process start to the first model request
// arriving at a mock server on 127.0.0.1, headless, with an empty project. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/bin/toolplane.js', import.meta.url));
const RUNS = 15;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function run() {
  const home = await mkdtemp(join(tmpdir(), 'toolplane-bench-cold-'));
  let arrived;
  const server = createServer((request, response) => {
    arrived?.(performance.now());
    request.resume();
    // Answer with an error so the CLI exits at once; only the arrival time matters.
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bench' } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const samples = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      const arrival = new Promise((resolve) => {
        arrived = resolve;
      });
      const child = spawn(process.execPath, [CLI, '-p', 'hello'], {
        cwd: home,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
          ANTHROPIC_API_KEY: 'bench',
          ANTHROPIC_BASE_URL: url,
        },
        stdio: 'ignore',
      });
      const at = await arrival;
      samples.push(at - started);
      await new Promise((resolve) => child.on('close', resolve));
    }
  } finally {
    server.close();
    await rm(home, { recursive: true, force: true });
  }
  return {
    'cli.cold_start_to_first_request_ms_median': Number(median(samples).toFixed(1)),
    runs: RUNS,
    target_ms: 150,
  };
}
