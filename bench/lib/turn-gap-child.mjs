// One side of the turn-gap bench, run in its own process: `node turn-gap-child.mjs <dist> <MB>...`
// loads the library from the `dist` folder named (this tree's, or an older build's), and for each
// history size runs a 12-turn session through the real loop and the Anthropic provider against the wire
// server, starting from a history of that size. Prints the figures as JSON on stdout.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAnthropicWireServer } from './anthropic-wire-server.mjs';

const TURNS = 12;
const RESULT_CHARS = 28_000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A history of about `megabytes` MB: Read calls answered with 28 KB results, some non-ASCII text in each. */
function history(megabytes, file) {
  const messages = [{ role: 'user', content: 'read the files' }];
  let size = 0;
  for (let i = 0; size < megabytes * 1e6; i += 1) {
    const line = `${String(i).padStart(6, '0')} const value = compute(input); // résumé ✓\n`;
    const text = line.repeat(Math.ceil(RESULT_CHARS / line.length)).slice(0, RESULT_CHARS);
    const use = { type: 'tool_use', id: `toolu_old_${i}`, name: 'Read', input: { file_path: file } };
    messages.push({ role: 'assistant', content: [use] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: text }] });
    size += Buffer.byteLength(text) + 200;
  }
  return messages;
}

async function measure(lib, megabytes, folder) {
  const { query, assembleToolPool, createServices, createAnthropicProvider, tools } = lib;
  const file = join(folder, 'small.txt');
  const replies = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    replies.push([{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { file_path: file } }]);
  }
  replies.push([{ type: 'text', text: 'done' }]);
  const server = await startAnthropicWireServer({ replies });
  try {
    const provider = createAnthropicProvider({
      apiKey: 'bench',
      baseURL: server.baseURL,
      retry: { maxRetries: 0 },
      env: {},
    });
    const services = createServices().set(tools.fileStateService, tools.createFileStateStore());
    const pool = assembleToolPool({ builtins: [tools.createReadTool()] });
    const generator = query({
      provider,
      system: 'bench',
      messages: history(megabytes, file),
      getPool: () => pool,
      plane: { cwd: folder, sessionId: 'bench', services },
      maxTurns: TURNS + 2,
    });
    let step = await generator.next();
    while (!step.done) step = await generator.next();
    if (step.value.status !== 'success') throw new Error(`turn-gap bench ended with ${step.value.status}`);
    const { headersAt, headersCpu, bodyAt, finishedAt, finishedCpu, bodyBytes } = server.timings;
    const toHeaders = [];
    const cpu = [];
    const toBody = [];
    for (let turn = 1; turn < headersAt.length; turn += 1) {
      toHeaders.push(headersAt[turn] - finishedAt[turn - 1]);
      cpu.push(headersCpu[turn] - finishedCpu[turn - 1]);
      toBody.push(bodyAt[turn] - finishedAt[turn - 1]);
    }
    return {
      request_mb: Number((bodyBytes.at(-1) / 1e6).toFixed(2)),
      gap_to_request_ms_median: Number(median(toHeaders).toFixed(2)),
      gap_cpu_ms_median: Number(median(cpu).toFixed(2)),
      gap_to_full_body_ms_median: Number(median(toBody).toFixed(2)),
    };
  } finally {
    await server.close();
  }
}

const [dist, ...sizes] = process.argv.slice(2);
const root = pathToFileURL(`${dist}/`);
const lib = {
  ...(await import(new URL('index.js', root))),
  ...(await import(new URL('providers/index.js', root))),
  tools: await import(new URL('tools/index.js', root)),
};
const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-gap-'));
try {
  await writeFile(join(folder, 'small.txt'), 'small file\n'.repeat(20));
  // A small session first, not reported: the first size measured would otherwise also pay for
  // warming up the JIT.
  await measure(lib, 0.2, folder);
  const results = {};
  for (const size of sizes) results[`${size}MB`] = await measure(lib, Number(size), folder);
  process.stdout.write(`${JSON.stringify(results)}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
