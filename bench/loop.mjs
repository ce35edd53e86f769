// The agent loop's own time per turn (issue: the agent loop): a 30-turn session against a mock
// Anthropic server through the real SDK, each turn ten parallel Reads of 30 KB files. Measured
// from the end of a model response (the provider's message-complete) to the next request being
// handed to the provider (the loop's request-start), which covers running the calls, building the
// result message, repairing the history and building the next request. The SDK's own send time
// (serialising the growing history) is reported separately. Run after `npm run build`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleToolPool, createServices, query } from '../dist/index.js';
import { createAnthropicProvider } from '../dist/providers/index.js';
import { startMockAnthropicServer } from '../dist/testing/index.js';
import { createReadTool, createFileStateStore, fileStateService } from '../dist/tools/index.js';

const TURNS = 30;
const READS = 10;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function run() {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-loop-'));
  const files = [];
  for (let i = 0; i < READS; i += 1) {
    const path = join(folder, `file-${i}.txt`);
    await writeFile(path, `${'x'.repeat(99)}\n`.repeat(300));
    files.push(path);
  }
  const replies = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    replies.push({
      content: files.map((file, i) => ({
        type: 'tool_use',
        id: `toolu_${turn}_${i}`,
        name: 'Read',
        input: { file_path: file },
      })),
    });
  }
  replies.push({ content: [{ type: 'text', text: 'done' }] });
  const server = await startMockAnthropicServer({ replies, recordBodies: false });
  try {
    const inner = createAnthropicProvider({
      apiKey: 'bench',
      baseURL: server.baseURL,
      env: {},
      retry: { maxRetries: 0 },
    });
    const completedAt = [];
    const sendStartedAt = [];
    const firstByteAt = [];
    const provider = {
      ...inner,
      name: inner.name,
      defaultModel: inner.defaultModel,
      capabilities: inner.capabilities,
      async *stream(request, signal) {
        sendStartedAt.push(performance.now());
        let first = true;
        for await (const event of inner.stream(request, signal)) {
          if (first) {
            firstByteAt.push(performance.now());
            first = false;
          }
          if (event.type === 'message-complete') completedAt.push(performance.now());
          yield event;
        }
      },
    };
    const services = createServices().set(fileStateService, createFileStateStore());
    const pool = assembleToolPool({ builtins: [createReadTool()] });
    const requestAt = [];
    const generator = query({
      provider,
      system: 'bench',
      messages: [{ role: 'user', content: 'read everything' }],
      getPool: () => pool,
      plane: { cwd: folder, sessionId: 'bench', services },
      maxTurns: TURNS + 1,
    });
    let step = await generator.next();
    while (!step.done) {
      if (step.value.type === 'request-start') requestAt.push(performance.now());
      step = await generator.next();
    }
    if (step.value.status !== 'success')
      throw new Error(`loop bench ended with ${step.value.status}: ${step.value.error?.message}`);
    const loopTimes = [];
    for (let turn = 0; turn < TURNS; turn += 1) loopTimes.push(requestAt[turn + 1] - completedAt[turn]);
    const sendTimes = [];
    for (let turn = 1; turn <= TURNS; turn += 1) sendTimes.push(firstByteAt[turn] - sendStartedAt[turn]);
    return {
      'loop.turn_own_time_ms_median': Number(median(loopTimes).toFixed(3)),
      'loop.turn_own_time_ms_max': Number(Math.max(...loopTimes).toFixed(3)),
      'loop.sdk_send_to_first_event_ms_median': Number(median(sendTimes).toFixed(3)),
      turns: TURNS,
      reads_per_turn: READS,
      target_ms: 5,
    };
  } finally {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}
