// File tools benchmark: ten parallel Reads of 30 KB files (from the call to all ten mapped results),
// and Grep over a 50,000-file tree against the same ripgrep binary run directly with the same flags
// and full output. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStateStore } from '../dist/tools/file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../dist/tools/fs-helpers/file-tool-harness.js';
import { resolveRipgrep } from '../dist/tools/fs-helpers/run-ripgrep.js';
import { buildRipgrepArgs } from '../dist/tools/grep/build-ripgrep-args.js';
import { writeFileAtomic } from '../dist/tools/fs-helpers/write-file-atomic.js';
import { createGrepTool } from '../dist/tools/grep/grep-tool.js';
import { readTool } from '../dist/tools/read/read-tool.js';

const TREE = join(tmpdir(), 'toolplane-bench-grep');
const TREE_FILES = 50_000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function timeMs(operation) {
  const start = process.hrtime.bigint();
  await operation();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const round = (value, digits = 2) => Number(value.toFixed(digits));

async function benchParallelReads() {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-read-'));
  try {
    const line = 'const value = computeSomething(input, options); // a typical line of source code\n';
    const content = line.repeat(Math.ceil((30 * 1024) / line.length)).slice(0, 30 * 1024);
    const files = [];
    for (let index = 0; index < 10; index += 1) {
      const file = join(folder, `file-${index}.ts`);
      await writeFile(file, content);
      files.push(file);
    }
    const store = createFileStateStore();
    const context = createFileToolContext({ cwd: folder, store });
    const readAll = () => Promise.all(files.map((file) => runFileTool(readTool, { file_path: file }, context)));
    for (let warm = 0; warm < 5; warm += 1) await readAll();
    const samples = [];
    for (let run = 0; run < 60; run += 1) samples.push(await timeMs(readAll));
    return { medianMs: round(median(samples)), p95Ms: round(percentile(samples, 0.95)), files: 10, fileKiB: 30 };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Builds the 50,000-file tree once (500 folders of 100 files, one in ten holding the needle). */
async function ensureTree() {
  const done = join(TREE, '.complete');
  if (existsSync(done)) return;
  await rm(TREE, { recursive: true, force: true });
  for (let folder = 0; folder < TREE_FILES / 100; folder += 1) {
    const dir = join(TREE, `pkg-${folder}`, 'src');
    await mkdir(dir, { recursive: true });
    const writes = [];
    for (let index = 0; index < 100; index += 1) {
      const id = folder * 100 + index;
      const body = [
        `// module ${id}`,
        `export function handler${id}(request) {`,
        id % 10 === 0 ? `  // NEEDLE: revisit the handling of request ${id}` : `  const value = request.value * ${id};`,
        '  return value;',
        '}',
        '',
      ].join('\n');
      writes.push(writeFile(join(dir, `module-${index}.ts`), body));
    }
    await Promise.all(writes);
  }
  await writeFile(done, '');
}

function runRipgrepDirectly(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: TREE, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
    });
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

async function benchGrep() {
  await ensureTree();
  const binary = await resolveRipgrep();
  if (binary instanceof Error) throw binary;
  // Full output for both: no head limit, and a size cap far above what the search produces.
  const tool = createGrepTool({ defaultHeadLimit: 0, maxOutputChars: 1e9, maxEntries: 1e9 });
  const context = createFileToolContext({ cwd: TREE });
  const results = {};
  for (const mode of ['content', 'files_with_matches']) {
    const input = { pattern: 'NEEDLE: revisit', output_mode: mode, head_limit: 0 };
    const args = buildRipgrepArgs(input, TREE);
    let entries = 0;
    for (let warm = 0; warm < 2; warm += 1) {
      await runRipgrepDirectly(binary, args);
      const result = await runFileTool(tool, input, context);
      entries = String(result.content).split('\n').length;
    }
    const direct = [];
    const viaTool = [];
    for (let run = 0; run < 9; run += 1) {
      direct.push(await timeMs(() => runRipgrepDirectly(binary, args)));
      viaTool.push(await timeMs(() => runFileTool(tool, input, context)));
    }
    results[mode] = {
      ripgrepMedianMs: round(median(direct)),
      toolMedianMs: round(median(viaTool)),
      ratio: round(median(viaTool) / median(direct)),
      outputLines: entries,
    };
  }
  return { files: TREE_FILES, ...results };
}

/**
 * The write guard's remaining race window: from the end of the last synchronous stat (the final
 * staleness check) to the return of the rename that replaces the file, in microseconds.
 */
async function benchGuardWindow() {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-window-'));
  try {
    const file = join(folder, 'target.txt');
    await writeFile(file, 'original\n');
    const data = Buffer.from('x'.repeat(4096));
    const signal = new AbortController().signal;
    const windows = [];
    for (let run = 0; run < 300; run += 1) {
      let checked = 0n;
      let renamed = 0n;
      await writeFileAtomic({
        path: file,
        data,
        disposition: 'replace',
        signal,
        finalCheck: () => {
          statSync(file, { bigint: true });
          checked = process.hrtime.bigint();
          return undefined;
        },
        afterCommit: () => {
          renamed = process.hrtime.bigint();
        },
      });
      windows.push(Number(renamed - checked) / 1e3);
    }
    return { medianMicros: round(median(windows)), p95Micros: round(percentile(windows, 0.95)) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export async function run() {
  return {
    guardWindow: await benchGuardWindow(),
    parallelReads: await benchParallelReads(),
    grep: await benchGrep(),
  };
}
