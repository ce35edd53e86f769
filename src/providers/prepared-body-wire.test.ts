import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest } from '../contract/provider.js';
import { unparseableInput, type Message } from '../messages/types.js';
import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { toAnthropicParams, TOOL_SEARCH_BETA } from './anthropic/to-anthropic-params.js';
import { createOpenAIProvider } from './openai/openai-provider.js';
import { toOpenAIParams } from './openai/to-openai-params.js';

// What reaches the server through the prepared bodies, compared with what the official SDKs send
// when they serialise the same params themselves: the same bytes, with a content-length.

type Received = { readonly headers: IncomingHttpHeaders; readonly raw: Buffer };

const history: Message[] = [
  { role: 'user', content: 'read the files, é ✓ 𝄞' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'two reads', signature: 'sig' },
      { type: 'text', text: '' },
      { type: 'text', text: 'reading' },
      { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/tmp/ä.txt' } },
      { type: 'tool_use', id: 'b', name: 'Read', input: unparseableInput('{"file_path":') },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'a', content: `${'line with a lone surrogate \ud800\n'.repeat(3000)}end` },
      { type: 'tool_result', tool_use_id: 'b', content: 'bad input', is_error: true },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: 'and "quotes"', cache_control: { type: 'ephemeral' } },
    ],
  },
];

const request: ModelRequest = {
  model: 'claude-test',
  system: [{ type: 'text', text: 'rules\u2028', cache_control: { type: 'ephemeral' } }],
  messages: history,
  tools: [
    { name: 'Read', description: 'Reads.', input_schema: { type: 'object', properties: { file_path: {} } } },
    { name: 'mcp__db__q', description: 'Q.', input_schema: { type: 'object' }, defer_loading: true },
  ],
  toolChoice: { type: 'auto' },
  maxTokens: 300,
};

describe('prepared request bodies on the wire', () => {
  let received: Received[];
  let statuses: number[];
  let url: string;
  let close: () => Promise<void>;

  beforeEach(async () => {
    received = [];
    statuses = [];
    const server = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        received.push({ headers: incoming.headers, raw: Buffer.concat(chunks) });
        // An error answer ends each attempt at once; only what was sent matters here.
        response.writeHead(statuses.shift() ?? 400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'seen' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterEach(async () => {
    await close();
  });

  async function send(provider: ModelProvider, wanted: ModelRequest): Promise<void> {
    const events = provider.stream(wanted, new AbortController().signal);
    await expect(
      (async () => {
        for await (const event of events) void event;
      })(),
    ).rejects.toThrow(/seen/);
  }

  function expectSameRequest(own: Received, sdk: Received): void {
    expect(own.raw.equals(sdk.raw)).toBe(true);
    expect(JSON.parse(own.raw.toString('utf8'))).toEqual(JSON.parse(sdk.raw.toString('utf8')));
    expect(own.headers['content-length']).toBe(String(sdk.raw.length));
    expect(own.headers['transfer-encoding']).toBeUndefined();
  }

  it('sends to the Messages API the bytes the SDK would, again on a retry and with a longer history', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: url, env: {}, retry: { initialDelayMs: 1 } });
    statuses.push(529);
    await send(provider, request);
    const longer = {
      ...request,
      messages: [...history, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }],
    };
    await send(provider, longer as ModelRequest);
    const sdk = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    for (const wanted of [request, longer as ModelRequest]) {
      const { params } = toAnthropicParams(wanted, { model: 'claude-test', toolSearchBeta: TOOL_SEARCH_BETA });
      await expect(sdk.messages.create(params)).rejects.toThrow(/seen/);
    }
    expect(received).toHaveLength(5);
    const [first, retried, second, sdkFirst, sdkSecond] = received as [
      Received,
      Received,
      Received,
      Received,
      Received,
    ];
    expectSameRequest(first, sdkFirst);
    expectSameRequest(retried, sdkFirst);
    expectSameRequest(second, sdkSecond);
    expect(first.headers['anthropic-beta']).toBe(TOOL_SEARCH_BETA);
  });

  it('sends to a chat completions server the bytes the SDK would, again on a retry', async () => {
    const provider = createOpenAIProvider({ baseURL: url, env: {}, retry: { initialDelayMs: 1 } });
    statuses.push(503);
    await send(provider, request);
    const sdk = new OpenAI({ apiKey: 'not-needed', baseURL: url, maxRetries: 0 });
    const params = toOpenAIParams(request, { model: 'claude-test', maxTokensField: 'max_tokens', streamUsage: true });
    await expect(sdk.chat.completions.create(params)).rejects.toThrow(/seen/);
    expect(received).toHaveLength(3);
    const [first, retried, sdkOwn] = received as [Received, Received, Received];
    expectSameRequest(first, sdkOwn);
    expectSameRequest(retried, sdkOwn);
  });
});
