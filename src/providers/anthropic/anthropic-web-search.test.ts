import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import { createAnthropicWebSearch } from './anthropic-web-search.js';

type Answer = { readonly status?: number; readonly headers?: Record<string, string>; readonly body: unknown };

/** A Messages API stand-in answering non-streamed requests from a list, recording their bodies. */
async function startServer(answers: Answer[]): Promise<{ url: string; bodies: unknown[]; server: Server }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      const answer = answers.shift() ?? {
        status: 500,
        body: { type: 'error', error: { type: 'api_error', message: 'no answer left' } },
      };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

function message(content: unknown[], stopReason = 'end_turn'): Answer {
  return {
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

const searchUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest 4' } };
const results = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    {
      type: 'web_search_result',
      title: 'Vitest 4 released',
      url: 'https://vitest.dev/blog/4',
      encrypted_content: 'x',
      page_age: '2 days',
    },
    {
      type: 'web_search_result',
      title: 'Changelog',
      url: 'https://github.com/vitest-dev/vitest/releases',
      encrypted_content: 'y',
    },
  ],
};

describe('createAnthropicWebSearch', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  async function serve(answers: Answer[]) {
    const started = await startServer(answers);
    stop = () => new Promise<void>((resolve) => started.server.close(() => resolve()));
    return started;
  }

  it('sends the web search server tool with the domain filters and returns hits and text', async () => {
    const { url, bodies } = await serve([
      message([
        searchUse,
        results,
        { type: 'text', text: 'Vitest 4 is out' },
        { type: 'text', text: ', see the blog.' },
      ]),
    ]);
    const search = createAnthropicWebSearch({
      apiKey: 'k',
      baseURL: url,
      env: {},
      defaultModel: 'claude-test',
      maxUses: 3,
    });
    const found = await search.search(
      { query: 'vitest 4', allowedDomains: ['vitest.dev', 'github.com'] },
      new AbortController().signal,
    );
    expect(found).toEqual({
      hits: [
        { title: 'Vitest 4 released', url: 'https://vitest.dev/blog/4', pageAge: '2 days' },
        { title: 'Changelog', url: 'https://github.com/vitest-dev/vitest/releases' },
      ],
      text: 'Vitest 4 is out, see the blog.',
    });
    expect(bodies[0]).toMatchObject({
      model: 'claude-test',
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3, allowed_domains: ['vitest.dev', 'github.com'] },
      ],
      messages: [{ role: 'user', content: expect.stringContaining('vitest 4') }],
    });
  });

  it('continues a paused search by sending the paused turn back', async () => {
    const { url, bodies } = await serve([
      message([searchUse, results], 'pause_turn'),
      message([{ type: 'text', text: 'Summary.' }]),
    ]);
    const search = createAnthropicWebSearch({ apiKey: 'k', baseURL: url, env: {} });
    const found = await search.search(
      { query: 'vitest 4', blockedDomains: ['spam.test'] },
      new AbortController().signal,
    );
    expect(found.hits).toHaveLength(2);
    expect(found.text).toBe('Summary.');
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatchObject({
      tools: [{ blocked_domains: ['spam.test'] }],
      messages: [{ role: 'user' }, { role: 'assistant', content: [searchUse, results] }],
    });
  });

  it("reports the search tool's error code when nothing was found", async () => {
    const { url } = await serve([
      message([
        searchUse,
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
        },
      ]),
    ]);
    const search = createAnthropicWebSearch({ apiKey: 'k', baseURL: url, env: {} });
    await expect(search.search({ query: 'q' }, new AbortController().signal)).rejects.toThrow(
      'anthropic: web search failed: max_uses_exceeded',
    );
  });

  it('retries a rate limit as the API asks, and surfaces a refused request with its status', async () => {
    const { url, bodies } = await serve([
      {
        status: 429,
        headers: { 'retry-after-ms': '5' },
        body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      },
      {
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: 'web search is not enabled' } },
      },
    ]);
    const search = createAnthropicWebSearch({ apiKey: 'k', baseURL: url, env: {} });
    const error: unknown = await search
      .search({ query: 'q' }, new AbortController().signal)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 400, apiMessage: 'web search is not enabled' });
    expect(bodies).toHaveLength(2);
  });
});
