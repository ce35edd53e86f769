import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import { ToolplaneError } from '../../errors/index.js';
import { startMockAnthropicServer } from '../../testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../testing/mock-model-server.js';
import { createAnthropicProvider } from './anthropic-provider.js';
import { toStopReason } from './read-anthropic-stream.js';
import { TOOL_SEARCH_BETA } from './to-anthropic-params.js';

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const signal = new AbortController().signal;

const base: ModelRequest = {
  model: 'claude-test',
  system: 'sys',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  maxTokens: 300,
};

describe('createAnthropicProvider', () => {
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockAnthropicServer({ replies: [{ content: [{ type: 'text', text: 'ok' }] }] });
  });
  afterEach(async () => {
    await server.close();
  });

  function body(): Record<string, unknown> {
    return server.requests[0]?.body as Record<string, unknown>;
  }

  it('reads the key, base URL and model from the environment', async () => {
    const provider = createAnthropicProvider({
      env: { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_MODEL: 'claude-env' },
    });
    expect(provider.defaultModel).toBe('claude-env');
    expect(provider.capabilities).toEqual({ toolReference: true, webSearch: true });
    await collect(provider.stream({ ...base, model: '' }, signal));
    // This SDK version sends the API key as a bearer credential.
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer env-key');
    expect(body()['model']).toBe('claude-env');
  });

  it('prefers explicit options and accepts a bearer token', async () => {
    const provider = createAnthropicProvider({
      authToken: 'token-1',
      baseURL: server.baseURL,
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
      headers: { 'x-team': 'tools' },
    });
    await collect(provider.stream(base, signal));
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer token-1');
    expect(server.requests[0]?.headers['x-team']).toBe('tools');
  });

  it('refuses to start without credentials, saying which variable to set', () => {
    expect(() => createAnthropicProvider({ env: {} })).toThrow(ToolplaneError);
    expect(() => createAnthropicProvider({ env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
  });

  it('sends system blocks, tools with cache_control and tool_choice as the API takes them', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} });
    await collect(
      provider.stream(
        {
          ...base,
          system: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }],
          tools: [
            { name: 'Read', description: 'Reads.', input_schema: { type: 'object' }, strict: true },
            {
              name: 'Glob',
              description: 'Globs.',
              input_schema: { type: 'object' },
              cache_control: { type: 'ephemeral', ttl: '1h' },
            },
          ],
          toolChoice: { type: 'tool', name: 'Read' },
        },
        signal,
      ),
    );
    expect(body()).toMatchObject({
      model: 'claude-test',
      max_tokens: 300,
      stream: true,
      system: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }],
      tools: [
        { name: 'Read', description: 'Reads.', input_schema: { type: 'object' }, strict: true },
        {
          name: 'Glob',
          description: 'Globs.',
          input_schema: { type: 'object' },
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      tool_choice: { type: 'tool', name: 'Read' },
    });
    expect(server.requests[0]?.headers['anthropic-beta']).toBeUndefined();
  });

  it('leaves out tools, tool_choice and an empty system prompt when there are none', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} });
    server.enqueue({ content: [] });
    await collect(provider.stream({ ...base, system: '', toolChoice: { type: 'auto' } }, signal));
    await collect(provider.stream({ ...base, system: [] }, signal));
    for (const recorded of server.requests) {
      expect(Object.keys(recorded.body as object).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);
    }
  });

  it('adds the tool search beta for deferred tools, merged with the betas the request names', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} });
    await collect(
      provider.stream(
        {
          ...base,
          tools: [
            { name: 'mcp__db__query', description: 'Query.', input_schema: { type: 'object' }, defer_loading: true },
          ],
          betas: ['context-1m-2025-08-07'],
        },
        signal,
      ),
    );
    expect(server.requests[0]?.headers['anthropic-beta']).toBe(`context-1m-2025-08-07,${TOOL_SEARCH_BETA}`);
    expect((body()['tools'] as unknown[])[0]).toMatchObject({ defer_loading: true });
  });

  it('adds the tool search beta when a result carries tool_reference blocks, unless disabled', async () => {
    server.enqueue({ content: [] });
    const request: ModelRequest = {
      ...base,
      messages: [
        { role: 'user', content: 'find a tool' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'db' } }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'tool_reference', tool_name: 'mcp__db__query' }],
            },
          ],
        },
      ],
    };
    await collect(createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} }).stream(request, signal));
    expect(server.requests[0]?.headers['anthropic-beta']).toBe(TOOL_SEARCH_BETA);
    const quiet = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {}, toolSearchBeta: null });
    await collect(quiet.stream(request, signal));
    expect(server.requests[1]?.headers['anthropic-beta']).toBeUndefined();
  });

  it('drops empty text blocks the API would refuse, keeping the rest of the message', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} });
    await collect(
      provider.stream(
        {
          ...base,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: '' },
                { type: 'text', text: 'question' },
              ],
            },
            {
              role: 'assistant',
              content: [
                { type: 'text', text: '' },
                { type: 'tool_use', id: 'a', name: 'Read', input: 'oops' },
              ],
            },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'done' }] },
          ],
        },
        signal,
      ),
    );
    expect(body()['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'question' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'done' }] },
    ]);
  });

  it('keeps thinking blocks and reports cache creation tokens', async () => {
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'consider the files', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'done' },
      ],
      usage: { input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: 40 },
    });
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL: server.baseURL, env: {} });
    await collect(provider.stream(base, signal));
    const events = await collect(provider.stream(base, signal));
    const last = events.at(-1);
    expect(last?.type === 'message-complete' && last.message.content).toEqual([
      { type: 'thinking', thinking: 'consider the files', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'done' },
    ]);
    expect(last?.type === 'message-complete' && last.usage).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 40,
    });
  });

  it('maps stop reasons it does not know to other', () => {
    expect(toStopReason('pause_turn')).toBe('pause_turn');
    expect(toStopReason('refusal')).toBe('refusal');
    expect(toStopReason('model_context_window_exceeded')).toBe('other');
    expect(toStopReason(null)).toBe('other');
  });
});
