import { afterEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from './mock-anthropic-server.js';
import type { MockModelServer } from './mock-model-server.js';
import { startMockOpenAIServer, viewOfChatRequest } from './mock-openai-server.js';

const servers: MockModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function anthropic(...args: Parameters<typeof startMockAnthropicServer>): Promise<MockModelServer> {
  const server = await startMockAnthropicServer(...args);
  servers.push(server);
  return server;
}

async function openai(...args: Parameters<typeof startMockOpenAIServer>): Promise<MockModelServer> {
  const server = await startMockOpenAIServer(...args);
  servers.push(server);
  return server;
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const turn = {
  content: [
    { type: 'text' as const, text: 'Reading.' },
    { type: 'tool_use' as const, id: 't1', name: 'Read', input: { file_path: '/a' } },
    { type: 'tool_use' as const, id: 't2', name: 'Read', input_json: '{"file_path": ' },
  ],
  usage: { input_tokens: 10, output_tokens: 4 },
};

describe('mock Anthropic server', () => {
  it('answers a non-streaming request with one JSON message, malformed inputs as {}', async () => {
    const server = await anthropic({ replies: [turn] });
    const response = await post(`${server.url}/v1/messages`, { model: 'claude-x', messages: [] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 'msg_mock_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } },
        { type: 'tool_use', id: 't2', name: 'Read', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
  });

  it('streams the real event sequence', async () => {
    const server = await anthropic({ replies: [{ content: [{ type: 'text', text: 'h' }] }] });
    const text = await (await post(`${server.url}/v1/messages`, { model: 'm', stream: true, messages: [] })).text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('answers errors in the API shape, with retry-after when asked', async () => {
    const server = await anthropic({
      replies: [
        { kind: 'error', status: 429, retryAfterSeconds: 3 },
        { kind: 'error', status: 529 },
        { kind: 'error', status: 400, message: 'messages: field required' },
        { kind: 'error', status: 500 },
        { kind: 'error', status: 401 },
      ],
    });
    const limited = await post(`${server.url}/v1/messages`, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(await (await post(`${server.url}/v1/messages`, {})).json()).toMatchObject({
      error: { type: 'overloaded_error' },
    });
    expect(await (await post(`${server.url}/v1/messages`, {})).json()).toMatchObject({
      error: { type: 'invalid_request_error', message: 'messages: field required' },
    });
    expect(await (await post(`${server.url}/v1/messages`, {})).json()).toMatchObject({ error: { type: 'api_error' } });
    expect(await (await post(`${server.url}/v1/messages`, {})).json()).toMatchObject({
      error: { type: 'authentication_error' },
    });
  });

  it('records every request, refuses other routes, non-JSON bodies and requests beyond the queue', async () => {
    const server = await anthropic();
    const wrongRoute = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(wrongRoute.status).toBe(404);
    expect(await wrongRoute.json()).toMatchObject({
      error: { message: expect.stringContaining('use POST /v1/messages') },
    });
    const notJson = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: 'nope' });
    expect(notJson.status).toBe(400);
    const empty = await post(`${server.url}/v1/messages`, { model: 'm' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { message: 'mock server: no reply queued for request 3' } });
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/complete', '/v1/messages', '/v1/messages']);
    expect(server.requests[2]?.body).toEqual({ model: 'm' });
    server.enqueue({ content: [] });
    expect(server.pendingReplies).toBe(1);
    expect((await post(`${server.url}/v1/messages`, {})).status).toBe(200);
    expect(server.pendingReplies).toBe(0);
  });

  it('can leave bodies out of the record while still checking expectations', async () => {
    const server = await anthropic({
      recordBodies: false,
      replies: [{ content: [], expect: { includes: ['needle'] } }],
    });
    const response = await post(`${server.url}/v1/messages`, { messages: [{ role: 'user', content: 'hay' }] });
    expect(response.status).toBe(400);
    expect(server.requests[0]?.body).toBeUndefined();
    expect(server.mismatches[0]).toContain('text "needle" is in no user message or tool result');
  });

  it('refuses an invalid scripted reply when it is queued', async () => {
    await expect(anthropic({ replies: [{ content: [{ type: 'image' }] } as never] })).rejects.toThrow(
      /reply 1 is not a valid scripted turn/,
    );
  });

  it('spaces events by the chunk delay and cuts the socket where told', async () => {
    const server = await anthropic({
      replies: [
        { kind: 'turn', turn: { content: [{ type: 'text', text: 'abcdef' }] }, chunkDelayMs: 5, cutAfterEvents: 3 },
      ],
    });
    const response = await post(`${server.url}/v1/messages`, { stream: true });
    await expect(response.text()).rejects.toThrow();
  });
});

describe('mock OpenAI server', () => {
  it('streams parallel tool calls interleaved by index, with usage and [DONE]', async () => {
    const server = await openai({ replies: [turn] });
    const text = await (
      await post(`${server.url}/v1/chat/completions`, {
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
        messages: [],
      })
    ).text();
    const data = text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => frame.slice(6));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data
      .slice(0, -1)
      .map(
        (line) => JSON.parse(line) as { choices: { delta: { tool_calls?: { index: number }[] } }[]; usage?: unknown },
      );
    const order = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls?.map((call) => call.index) ?? []);
    expect(order.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4 });
  });

  it('answers a non-streaming request with one completion carrying the raw arguments', async () => {
    const server = await openai({ replies: [turn] });
    const body = (await (await post(`${server.url}/v1/chat/completions`, { model: 'm', messages: [] })).json()) as {
      choices: { message: unknown; finish_reason: string }[];
    };
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a"}' } },
          { id: 't2', type: 'function', function: { name: 'Read', arguments: '{"file_path": ' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('answers errors in the OpenAI shape', async () => {
    const server = await openai({
      replies: [
        { kind: 'error', status: 429, retryAfterSeconds: 1 },
        { kind: 'error', status: 401 },
      ],
    });
    const limited = await post(`${server.url}/v1/chat/completions`, {});
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({
      error: { message: 'mock requests (HTTP 429)', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect(await (await post(`${server.url}/v1/chat/completions`, {})).json()).toMatchObject({
      error: { code: 'invalid_api_key' },
    });
  });

  it('reads tool messages after the last assistant message as the last results', () => {
    const view = viewOfChatRequest({
      tools: [{ type: 'function', function: { name: 'Read' } }, { type: 'other' }],
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', tool_calls: [{ id: 'old' }] },
        { role: 'tool', tool_call_id: 'old', content: 'stale' },
        { role: 'assistant', tool_calls: [{ id: 'a' }, { id: 'b' }] },
        { role: 'tool', tool_call_id: 'a', content: 'fine' },
        { role: 'tool', tool_call_id: 'b', content: '<tool_use_error>bad</tool_use_error>' },
        { role: 'user', content: [{ type: 'image_url' }] },
      ],
    });
    expect(view.toolNames).toEqual(['Read']);
    expect(view.lastResults).toEqual([
      { id: 'a', isError: false, text: 'fine' },
      { id: 'b', isError: true, text: '<tool_use_error>bad</tool_use_error>' },
    ]);
    expect(view.userTexts).toContain('go');
    expect(view.userTexts).toContain('stale');
  });
});
