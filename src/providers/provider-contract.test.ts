import { afterEach, describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../contract/provider.js';
import { getUnparseableInput, unparseableInput, type Message } from '../messages/types.js';
import { startMockAnthropicServer } from '../testing/mock-anthropic-server.js';
import type { MockModelServer, MockServerOptions } from '../testing/mock-model-server.js';
import { startMockOpenAIServer, viewOfChatRequest } from '../testing/mock-openai-server.js';
import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { createOpenAIProvider } from './openai/openai-provider.js';
import { ProviderError } from './provider-error.js';
import type { RetryInfo, RetryOptions } from './retry-stream.js';
import { viewOfMessagesRequest, type RequestView } from './scripted/check-expectation.js';

/** What the shared contract needs to know about one provider and its wire format. */
type ProviderHarness = {
  readonly name: string;
  readonly startServer: (options: MockServerOptions) => Promise<MockModelServer>;
  readonly createProvider: (options: {
    readonly baseURL: string;
    readonly retry: RetryOptions;
    readonly streamIdleTimeoutMs?: number;
  }) => ModelProvider;
  /** Reads a recorded request body. */
  readonly view: (body: unknown) => RequestView;
  /** The tool calls of the assistant messages in a recorded request body, with their inputs as sent. */
  readonly toolCallsOf: (
    body: unknown,
  ) => readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
  /** Status and error type the server uses for "overloaded". */
  readonly overloaded: { readonly status: number; readonly errorType: string };
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagesOf(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body['messages']) ? body['messages'] : [];
}

const anthropicHarness: ProviderHarness = {
  name: 'anthropic',
  startServer: startMockAnthropicServer,
  createProvider: (options) => createAnthropicProvider({ apiKey: 'test-key', ...options, env: {} }),
  view: viewOfMessagesRequest,
  toolCallsOf: (body) =>
    messagesOf(body).flatMap((message) =>
      isRecord(message) && message['role'] === 'assistant' && Array.isArray(message['content'])
        ? message['content'].flatMap((block: unknown) =>
            isRecord(block) && block['type'] === 'tool_use'
              ? [{ id: String(block['id']), name: String(block['name']), input: block['input'] }]
              : [],
          )
        : [],
    ),
  overloaded: { status: 529, errorType: 'overloaded_error' },
};

const openAIHarness: ProviderHarness = {
  name: 'openai',
  startServer: startMockOpenAIServer,
  createProvider: (options) => createOpenAIProvider({ ...options, env: {} }),
  view: viewOfChatRequest,
  toolCallsOf: (body) =>
    messagesOf(body).flatMap((message) =>
      isRecord(message) && message['role'] === 'assistant' && Array.isArray(message['tool_calls'])
        ? message['tool_calls'].flatMap((call: unknown) => {
            const fn = isRecord(call) ? call['function'] : undefined;
            return isRecord(call) && isRecord(fn)
              ? [
                  {
                    id: String(call['id']),
                    name: String(fn['name']),
                    input: JSON.parse(String(fn['arguments'])) as unknown,
                  },
                ]
              : [];
          })
        : [],
    ),
  overloaded: { status: 503, errorType: 'server_error' },
};

const tools = [
  {
    name: 'Read',
    description: 'Reads a file.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' } } },
  },
];

function request(messages: readonly Message[] = [{ role: 'user', content: 'hi' }]): ModelRequest {
  return { model: 'test-model', system: 'You are terse.', messages, tools, maxTokens: 512 };
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function failure(
  iterable: AsyncIterable<ModelStreamEvent>,
  seen: ModelStreamEvent[] = [],
): Promise<ProviderError> {
  try {
    for await (const event of iterable) seen.push(event);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected the stream to fail');
}

function completion(events: readonly ModelStreamEvent[]): Extract<ModelStreamEvent, { type: 'message-complete' }> {
  const last = events.at(-1);
  if (last?.type !== 'message-complete')
    throw new Error(`stream did not end with message-complete: ${JSON.stringify(last)}`);
  return last;
}

const fast: RetryOptions = { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 4 };

/** The behaviour every provider must show against its wire format's mock server. */
function providerContract(harness: ProviderHarness): void {
  describe(`${harness.name} provider contract`, () => {
    const servers: MockModelServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });

    async function setup(options: MockServerOptions, retry: RetryOptions = fast, streamIdleTimeoutMs?: number) {
      const server = await harness.startServer(options);
      servers.push(server);
      const idle = streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs };
      return { server, provider: harness.createProvider({ baseURL: server.baseURL, retry, ...idle }) };
    }

    const signal = new AbortController().signal;

    it('streams text as several deltas and completes with end_turn and usage', async () => {
      const { provider } = await setup({
        replies: [
          {
            content: [{ type: 'text', text: 'The answer is forty-two.' }],
            usage: { input_tokens: 21, output_tokens: 5, cache_read_input_tokens: 7 },
          },
        ],
      });
      const events = await collect(provider.stream(request(), signal));
      const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('The answer is forty-two.');
      const done = completion(events);
      expect(done.stopReason).toBe('end_turn');
      expect(done.message).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: 'The answer is forty-two.' }],
      });
      expect(done.usage).toMatchObject({ inputTokens: 21, outputTokens: 5, cacheReadInputTokens: 7 });
    });

    it('assembles a tool input from its JSON deltas', async () => {
      const input = { file_path: '/tmp/project/src/index.ts', limit: 40 };
      const { provider } = await setup({
        replies: [{ content: [{ type: 'tool_use', id: 'call_1', name: 'Read', input }] }],
      });
      const events = await collect(provider.stream(request(), signal));
      expect(events[0]).toEqual({ type: 'tool-use-start', id: 'call_1', name: 'Read' });
      const deltas = events.flatMap((event) => (event.type === 'tool-input-delta' ? [event.partialJson] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(JSON.parse(deltas.join(''))).toEqual(input);
      expect(events).toContainEqual({
        type: 'tool-use-complete',
        block: { type: 'tool_use', id: 'call_1', name: 'Read', input },
      });
      expect(completion(events).stopReason).toBe('tool_use');
    });

    it('keeps two parallel tool calls apart', async () => {
      const { provider } = await setup({
        replies: [
          {
            content: [
              { type: 'text', text: 'Reading both.' },
              { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: '/a.txt' } },
              { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: '/b.txt' } },
            ],
          },
        ],
      });
      const events = await collect(provider.stream(request(), signal));
      for (const id of ['call_a', 'call_b']) {
        const json = events.flatMap((event) =>
          event.type === 'tool-input-delta' && event.id === id ? [event.partialJson] : [],
        );
        expect(JSON.parse(json.join(''))).toEqual({ file_path: id === 'call_a' ? '/a.txt' : '/b.txt' });
      }
      const done = completion(events);
      expect(done.message.content).toEqual([
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: '/a.txt' } },
        { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: '/b.txt' } },
      ]);
    });

    it('wraps an unparseable tool input instead of failing', async () => {
      const raw = '{"file_path": "/a.txt", "limit": ';
      const { provider } = await setup({
        replies: [{ content: [{ type: 'tool_use', id: 'call_x', name: 'Read', input_json: raw }] }],
      });
      const events = await collect(provider.stream(request(), signal));
      const complete = events.find((event) => event.type === 'tool-use-complete');
      expect(complete?.type === 'tool-use-complete' ? getUnparseableInput(complete.block.input) : undefined).toBe(raw);
      expect(completion(events).stopReason).toBe('tool_use');
    });

    it('sends tool calls and their results back mapped to the wire format', async () => {
      const { server, provider } = await setup({
        replies: [
          {
            content: [{ type: 'text', text: 'ok' }],
            expect: { tool_results: ['call_a', 'call_b'], errors: ['call_b'] },
          },
        ],
      });
      const messages: Message[] = [
        { role: 'user', content: 'read a and b' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: '/a.txt' } },
            { type: 'tool_use', id: 'call_b', name: 'Read', input: unparseableInput('{"file_path":') },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: 'alpha contents' },
            { type: 'tool_result', tool_use_id: 'call_b', content: 'Input is not valid JSON.', is_error: true },
          ],
        },
      ];
      await collect(provider.stream(request(messages), signal));
      const body = server.requests[0]?.body;
      expect(harness.toolCallsOf(body)).toEqual([
        { id: 'call_a', name: 'Read', input: { file_path: '/a.txt' } },
        { id: 'call_b', name: 'Read', input: {} },
      ]);
      const view = harness.view(body);
      expect(view.toolNames).toEqual(['Read']);
      expect(view.lastResults.map(({ id, isError }) => ({ id, isError }))).toEqual([
        { id: 'call_a', isError: false },
        { id: 'call_b', isError: true },
      ]);
      expect(view.lastResults[0]?.text).toBe('alpha contents');
      expect(view.lastResults[1]?.text).toContain('Input is not valid JSON.');
    });

    it("surfaces the mock server's expectation mismatch as a 400 with its message", async () => {
      const { server, provider } = await setup({
        replies: [{ content: [{ type: 'text', text: 'ok' }], expect: { tool_results: ['call_z'] } }],
      });
      const error = await failure(provider.stream(request(), signal));
      expect(error.status).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('tool_result ids: expected "call_z", got (none)');
      expect(server.mismatches).toHaveLength(1);
    });

    it('waits as long as retry-after asks after a rate limit, then succeeds', async () => {
      const retries: RetryInfo[] = [];
      const { server, provider } = await setup(
        {
          replies: [
            { kind: 'error', status: 429, retryAfterSeconds: 0.02 },
            { content: [{ type: 'text', text: 'after the wait' }] },
          ],
        },
        { ...fast, onRetry: (info) => retries.push(info) },
      );
      const events = await collect(provider.stream(request(), signal));
      expect(completion(events).message.content).toEqual([{ type: 'text', text: 'after the wait' }]);
      expect(server.requests).toHaveLength(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]?.delayMs).toBe(20);
      expect(retries[0]?.error.status).toBe(429);
    });

    it('surfaces overload once the retries are used up', async () => {
      const overload = { kind: 'error' as const, status: harness.overloaded.status, message: 'Overloaded' };
      const { server, provider } = await setup(
        { replies: [overload, overload, overload] },
        { maxRetries: 2, initialDelayMs: 1 },
      );
      const error = await failure(provider.stream(request(), signal));
      expect(error.code).toBe('PROVIDER_ERROR');
      expect(error.kind).toBe('http');
      expect(error.status).toBe(harness.overloaded.status);
      expect(error.apiErrorType).toBe(harness.overloaded.errorType);
      expect(error.apiMessage).toBe('Overloaded');
      expect(error.attempts).toBe(3);
      expect(error.message).toContain('(after 3 attempts)');
      expect(server.requests).toHaveLength(3);
    });

    it('does not retry a request the API refused', async () => {
      const { server, provider } = await setup({
        replies: [{ kind: 'error', status: 401, message: 'invalid x-api-key' }],
      });
      const error = await failure(provider.stream(request(), signal));
      expect(error.status).toBe(401);
      expect(error.apiMessage).toBe('invalid x-api-key');
      expect(error.message).toContain('HTTP 401');
      expect(server.requests).toHaveLength(1);
    });

    it('retries an error event that arrives before any output', async () => {
      const { server, provider } = await setup({
        replies: [
          {
            kind: 'turn',
            turn: { content: [{ type: 'text', text: 'never' }] },
            errorAfterEvents: { events: 1, errorType: harness.overloaded.errorType },
          },
          { content: [{ type: 'text', text: 'second try' }] },
        ],
      });
      const events = await collect(provider.stream(request(), signal));
      expect(completion(events).message.content).toEqual([{ type: 'text', text: 'second try' }]);
      expect(server.requests).toHaveLength(2);
    });

    const toolTurn = {
      content: [
        { type: 'tool_use' as const, id: 'toolu_cut', name: 'Read', input: { file_path: '/a/b/c/d/e/f/g.txt' } },
      ],
    };

    it('retries an error event that came before any tool call, and says the streamed text is void', async () => {
      const { server, provider } = await setup({
        replies: [
          {
            kind: 'turn',
            turn: { content: [{ type: 'text', text: 'a fairly long answer' }] },
            errorAfterEvents: { events: 4, errorType: harness.overloaded.errorType, message: 'Overloaded mid-way' },
          },
          { content: [{ type: 'text', text: 'the second answer' }] },
        ],
      });
      const events = await collect(provider.stream(request(), signal));
      const retry = events.findIndex((event) => event.type === 'retry');
      expect(events.slice(0, retry).some((event) => event.type === 'text-delta')).toBe(true);
      expect(events[retry]).toMatchObject({ type: 'retry', attempt: 1, maxRetries: 3 });
      expect((events[retry] as { message: string }).message).toContain('Overloaded mid-way');
      expect(completion(events).message.content).toEqual([{ type: 'text', text: 'the second answer' }]);
      expect(server.requests).toHaveLength(2);
    });

    it('surfaces an error event after a tool call started, without retrying', async () => {
      const { server, provider } = await setup({
        replies: [
          { kind: 'turn', turn: toolTurn, errorAfterEvents: { events: 3, errorType: harness.overloaded.errorType } },
          { content: [{ type: 'text', text: 'must not be requested' }] },
        ],
      });
      const seen: ModelStreamEvent[] = [];
      const error = await failure(provider.stream(request(), signal), seen);
      expect(seen.some((event) => event.type === 'tool-use-start')).toBe(true);
      expect(error.kind).toBe('stream');
      expect(server.requests).toHaveLength(1);
    });

    it('retries a stream cut before any tool call started', async () => {
      const { server, provider } = await setup({
        replies: [
          {
            kind: 'turn',
            turn: { content: [{ type: 'text', text: 'this answer will be cut off' }] },
            cutAfterEvents: 4,
          },
          { content: [{ type: 'text', text: 'whole this time' }] },
        ],
      });
      const events = await collect(provider.stream(request(), signal));
      expect(events.filter((event) => event.type === 'retry')).toHaveLength(1);
      expect(completion(events).message.content).toEqual([{ type: 'text', text: 'whole this time' }]);
      expect(server.requests).toHaveLength(2);
    });

    it('surfaces a stream cut after a tool call started, without hanging or retrying', async () => {
      const { server, provider } = await setup({
        replies: [
          { kind: 'turn', turn: toolTurn, cutAfterEvents: 3 },
          { content: [{ type: 'text', text: 'must not be requested' }] },
        ],
      });
      const seen: ModelStreamEvent[] = [];
      const error = await failure(provider.stream(request(), signal), seen);
      expect(seen.some((event) => event.type === 'tool-use-start')).toBe(true);
      expect(seen.some((event) => event.type === 'message-complete')).toBe(false);
      expect(error.kind).toBe('stream');
      expect(server.requests).toHaveLength(1);
    });

    it('abandons a stream that goes idle and retries the request', async () => {
      const { server, provider } = await setup(
        {
          replies: [
            { kind: 'turn', turn: { content: [{ type: 'text', text: 'stalls after a word' }] }, stallAfterEvents: 3 },
            { content: [{ type: 'text', text: 'not stalled' }] },
          ],
        },
        fast,
        200,
      );
      const events = await collect(provider.stream(request(), signal));
      const retry = events.find((event) => event.type === 'retry');
      expect(retry).toMatchObject({ type: 'retry', attempt: 1 });
      expect((retry as { message: string }).message).toContain('no event from the API for 200 ms');
      expect(completion(events).message.content).toEqual([{ type: 'text', text: 'not stalled' }]);
      expect(server.requests).toHaveLength(2);
    });

    it('abandons a request whose answer never starts, and gives up after its retries', async () => {
      const { server, provider } = await setup(
        {
          replies: [
            { kind: 'turn', turn: { content: [{ type: 'text', text: 'never sent' }] }, stallAfterEvents: 0 },
            { kind: 'turn', turn: { content: [{ type: 'text', text: 'never sent' }] }, stallAfterEvents: 0 },
          ],
        },
        { maxRetries: 1, initialDelayMs: 1 },
        200,
      );
      const error = await failure(provider.stream(request(), signal));
      expect(error.message).toContain('no event from the API for 200 ms');
      expect(error.attempts).toBe(2);
      expect(server.requests).toHaveLength(2);
    });

    it('stops with an aborted error when the signal fires mid-stream', async () => {
      const { provider } = await setup({
        replies: [
          {
            kind: 'turn',
            turn: { content: [{ type: 'text', text: 'slow words arrive one by one' }] },
            chunkDelayMs: 30,
          },
        ],
      });
      const controller = new AbortController();
      const seen: ModelStreamEvent[] = [];
      let caught: unknown;
      try {
        for await (const event of provider.stream(request(), controller.signal)) {
          seen.push(event);
          controller.abort();
        }
      } catch (error) {
        caught = error;
      }
      expect(seen).toHaveLength(1);
      expect(caught).toBeInstanceOf(ProviderError);
      expect((caught as ProviderError).kind).toBe('aborted');
    });

    it('does not send a request when the signal has already fired', async () => {
      const { server, provider } = await setup({ replies: [{ content: [] }] });
      const controller = new AbortController();
      controller.abort();
      const error = await failure(provider.stream(request(), controller.signal));
      expect(error.kind).toBe('aborted');
      expect(server.requests).toHaveLength(0);
    });

    it('retries a refused connection, then reports it', async () => {
      const server = await harness.startServer({});
      const baseURL = server.baseURL;
      await server.close();
      const provider = harness.createProvider({ baseURL, retry: { maxRetries: 1, initialDelayMs: 1 } });
      const error = await failure(provider.stream(request(), signal));
      expect(error.kind).toBe('connection');
      expect(error.attempts).toBe(2);
      expect(error.message).toMatch(/could not reach the API: .*ECONNREFUSED/);
    });
  });
}

providerContract(anthropicHarness);
providerContract(openAIHarness);
