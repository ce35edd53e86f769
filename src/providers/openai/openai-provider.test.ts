import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import type { MockModelServer } from '../../testing/mock-model-server.js';
import { startMockOpenAIServer } from '../../testing/mock-openai-server.js';
import { createOpenAIProvider, PLACEHOLDER_API_KEY } from './openai-provider.js';

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const signal = new AbortController().signal;
const request: ModelRequest = {
  model: '',
  system: 'sys',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  maxTokens: 64,
};

describe('createOpenAIProvider', () => {
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockOpenAIServer({ replies: [{ content: [{ type: 'text', text: 'ok' }] }] });
  });
  afterEach(async () => {
    await server.close();
  });

  it('reads key, base URL and model from the environment', async () => {
    const provider = createOpenAIProvider({
      env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'qwen2.5-coder' },
    });
    expect(provider.name).toBe('openai');
    expect(provider.capabilities).toEqual({ toolReference: false, webSearch: false });
    await collect(provider.stream(request, signal));
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-env');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'qwen2.5-coder',
      max_tokens: 64,
      stream_options: { include_usage: true },
    });
  });

  it('sends a placeholder key to a local server that needs none, under the name it was given', async () => {
    const provider = createOpenAIProvider({
      baseURL: server.baseURL,
      env: {},
      name: 'ollama',
      defaultModel: 'llama3.1',
    });
    expect(provider.name).toBe('ollama');
    const events = await collect(provider.stream(request, signal));
    expect(events.at(-1)?.type).toBe('message-complete');
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
    expect(server.requests[0]?.body).toMatchObject({ model: 'llama3.1' });
  });

  it('completes without usage when the server is asked for none', async () => {
    const provider = createOpenAIProvider({
      baseURL: server.baseURL,
      env: {},
      streamUsage: false,
      maxTokensField: 'max_completion_tokens',
    });
    const events = await collect(provider.stream(request, signal));
    const done = events.at(-1);
    expect(done?.type === 'message-complete' && done.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['stream_options']).toBeUndefined();
    expect(body['max_completion_tokens']).toBe(64);
  });
});
