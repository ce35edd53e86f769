// Process tools benchmark: what the Bash tool adds over a raw `bash -c` spawn, how fast it spills a
// large output to disk and how little memory that takes, and a WebFetch of a 100 KB HTML page over
// HTTPS on 127.0.0.1 (address checks, TLS, Markdown conversion). Run after `npm run build`.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServices } from '../dist/contract/services.js';
import { createBashTool } from '../dist/tools/bash/bash-tool.js';
import { SPILL_FOLDER, createSpillFolder } from '../dist/tools/bash/spill-folder.js';
import { createWebFetchTool } from '../dist/tools/web-fetch/web-fetch-tool.js';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function context(cwd, services) {
  return {
    toolUseId: 'toolu_bench',
    signal: new AbortController().signal,
    cwd,
    sessionId: 'bench',
    agentId: 'main',
    permissionMode: 'default',
    services,
    reportProgress: () => undefined,
  };
}

async function timeMs(operation) {
  const start = process.hrtime.bigint();
  await operation();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function rawSpawn(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.once('error', reject);
    child.once('close', resolve);
    child.stdout.resume();
    child.stderr.resume();
  });
}

async function benchBash(folder) {
  const services = createServices().set(SPILL_FOLDER, createSpillFolder({ path: join(folder, 'spill') }));
  const bash = createBashTool({ env: process.env });
  const ctx = context(folder, services);
  const runs = 40;
  const toolSamples = [];
  const rawSamples = [];
  for (let i = 0; i < runs; i += 1) {
    rawSamples.push(await timeMs(() => rawSpawn(folder)));
    toolSamples.push(await timeMs(() => bash.call({ command: 'true' }, ctx)));
  }
  const bytes = 200 * 1024 * 1024;
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 5);
  const spillMs = await timeMs(() => bash.call({ command: `head -c ${bytes} /dev/zero` }, ctx));
  clearInterval(sampler);
  const bashMedian = median(toolSamples);
  const rawMedian = median(rawSamples);
  return {
    bashTrueMedianMs: Number(bashMedian.toFixed(2)),
    rawSpawnTrueMedianMs: Number(rawMedian.toFixed(2)),
    bashOverRawRatio: Number((bashMedian / rawMedian).toFixed(2)),
    spill200MiBMs: Number(spillMs.toFixed(0)),
    spillThroughputMiBPerS: Number((200 / (spillMs / 1000)).toFixed(0)),
    spillPeakRssGrowthMiB: Number(((rssPeak - rssBefore) / 1024 / 1024).toFixed(1)),
  };
}

async function benchWebFetch(folder) {
  const run = promisify(execFile);
  const keyFile = join(folder, 'key.pem');
  const certFile = join(folder, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const cert = await readFile(certFile, 'utf8');
  const paragraph = '<p>Some <b>documentation</b> text with a <a href="/x">link</a> and <code>code()</code>.</p>\n';
  const html = `<html><body><h1>Docs</h1>${paragraph.repeat(Math.ceil(100_000 / paragraph.length))}</body></html>`;
  const server = createServer({ key: await readFile(keyFile), cert }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${server.address().port}/`;
  const tool = createWebFetchTool({ allowPrivateHosts: ['127.0.0.1'], ca: cert, cacheTtlMs: 0 });
  const cached = createWebFetchTool({ allowPrivateHosts: ['127.0.0.1'], ca: cert });
  const ctx = context(folder, createServices());
  const samples = [];
  const cachedSamples = [];
  await cached.call({ url, prompt: '' }, ctx);
  for (let i = 0; i < 20; i += 1) {
    samples.push(await timeMs(() => tool.call({ url, prompt: '' }, ctx)));
    cachedSamples.push(await timeMs(() => cached.call({ url, prompt: '' }, ctx)));
  }
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return {
    webFetch100KBHtmlMedianMs: Number(median(samples).toFixed(2)),
    webFetchCachedMedianMs: Number(median(cachedSamples).toFixed(3)),
  };
}

/** Runs the process-tools benchmark and returns its figures. */
export async function run() {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-process-'));
  try {
    return { ...(await benchBash(folder)), ...(await benchWebFetch(folder)) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
