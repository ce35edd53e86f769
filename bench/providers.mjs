// Providers benchmark: the cost of the provider edge for a 30-turn session in which every turn
// read ten 30 KB files. Request mapping (internal messages to each wire format), one full round
// trip through each official SDK against the mock servers on 127.0.0.1, and one scripted turn of
// ten parallel tool calls. Run after `npm run build`.
import { createAnthropicProvider } from '../dist/providers/anthropic/anthropic-provider.js';
import { toAnthropicParams } from '../dist/providers/anthropic/to-anthropic-params.js';
import { createOpenAIProvider } from '../dist/providers/openai/openai-provider.js';
import { toOpenAIParams } from '../dist/providers/openai/to-openai-params.js';
import { createScriptedProvider } from '../dist/providers/scripted/scripted-provider.js';
import { startMockAnthropicServer } from '../dist/testing/mock-anthropic-server.js';
import { startMockOpenAIServer } from '../dist/testing/mock-openai-server.js';

const TURNS = 30;
const CALLS = 10;
const FILE_BYTES = 30 * 1024;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (value, digits = 2) => Number(value.toFixed(digits));

function nowMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function history() {
  const line = 'const value = computeSomething(input, options); // a typical line of source code\n';
  const contents = line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES);
  const messages = [{ role: 'user', content: 'Read the project and summarise it.' }];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const ids = Array.from({ length: CALLS }, (_, call) => `toolu_${turn}_${call}`);
    messages.push({
      role: 'assistant',
      content: ids.map((id, call) => ({
        type: 'tool_use',
        id,
        name: 'Read',
        input: { file_path: `/project/src/file-${turn}-${call}.ts` },
      })),
    });
    messages.push({
      role: 'user',
      content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: contents })),
    });
  }
  return messages;
}

const tools = [
  {
    name: 'Read',
    description: 'Reads a file.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' } } },
  },
  {
    name: 'Grep',
    description: 'Searches.',
    input_schema: { type: 'object', properties: { pattern: { type: 'string' } } },
  },
];

function timeMapping(map, request, runs) {
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const start = nowMs();
    map(request);
    samples.push(nowMs() - start);
  }
  return median(samples) * 1000;
}

async function timeRoundTrips(start, create, request, runs) {
  const reply = { content: [{ type: 'text', text: 'Summary of the project.' }] };
  const server = await start({ recordBodies: false, replies: Array.from({ length: runs }, () => reply) });
  try {
    const provider = create(server.baseURL);
    const samples = [];
    for (let run = 0; run < runs; run += 1) {
      const begin = nowMs();
      for await (const event of provider.stream(request, new AbortController().signal)) void event;
      samples.push(nowMs() - begin);
    }
    return median(samples);
  } finally {
    await server.close();
  }
}

async function timeScriptedTurns(runs) {
  const turn = {
    content: Array.from({ length: CALLS }, (_, call) => ({
      type: 'tool_use',
      name: 'Read',
      input: { file_path: `/project/src/file-${call}.ts` },
    })),
  };
  const provider = createScriptedProvider({ turns: Array.from({ length: runs }, () => turn) });
  const request = {
    model: 'scripted',
    system: '',
    messages: [{ role: 'user', content: 'go' }],
    tools,
    maxTokens: 1024,
  };
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const begin = nowMs();
    for await (const event of provider.stream(request, new AbortController().signal)) void event;
    samples.push(nowMs() - begin);
  }
  return median(samples) * 1000;
}

export async function run() {
  const request = {
    model: 'bench-model',
    system: 'You are a coding agent.',
    messages: history(),
    tools,
    maxTokens: 8192,
  };
  const bodyBytes = Buffer.byteLength(
    JSON.stringify(toAnthropicParams(request, { model: 'bench-model', toolSearchBeta: null }).params),
  );
  const anthropicMapUs = timeMapping(
    (r) => toAnthropicParams(r, { model: 'bench-model', toolSearchBeta: null }),
    request,
    200,
  );
  const openaiMapUs = timeMapping(
    (r) => toOpenAIParams(r, { model: 'bench-model', maxTokensField: 'max_tokens', streamUsage: true }),
    request,
    200,
  );
  const anthropicRoundTripMs = await timeRoundTrips(
    startMockAnthropicServer,
    (baseURL) => createAnthropicProvider({ apiKey: 'bench', baseURL, env: {} }),
    request,
    15,
  );
  const openaiRoundTripMs = await timeRoundTrips(
    startMockOpenAIServer,
    (baseURL) => createOpenAIProvider({ baseURL, env: {} }),
    request,
    15,
  );
  const scriptedTurnUs = await timeScriptedTurns(200);
  return {
    historyTurns: TURNS,
    requestBodyMB: round(bodyBytes / 1e6),
    anthropicMapMedianUs: round(anthropicMapUs, 1),
    openaiMapMedianUs: round(openaiMapUs, 1),
    anthropicRoundTripMedianMs: round(anthropicRoundTripMs),
    openaiRoundTripMedianMs: round(openaiRoundTripMs),
    scriptedTenCallTurnMedianUs: round(scriptedTurnUs, 1),
  };
}
