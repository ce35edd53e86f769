import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { startMockOpenAIServer } from '../../src/testing/mock-openai-server.js';
import type { MockModelServer, MockReply, RecordedRequest } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

const demoServer = fileURLToPath(new URL('../../demo/mcp-server.mjs', import.meta.url));
const lateServer = fileURLToPath(new URL('../fixtures/late-mcp-server.mjs', import.meta.url));
const SUMMARY_REQUEST = 'Summarize the conversation so far';

type Body = { system?: unknown; tools?: unknown[]; messages: unknown[] };

/** The body with every `cache_control` mark removed, as the bytes the cache compares. */
function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, inner]) => [key, unmarked(inner)]),
  );
}

const bytes = (value: unknown) => JSON.stringify(unmarked(value));

/**
 * Where request `next` stops extending request `previous`: `system` and the tools must be byte
 * identical (tools may only grow at their end) and the earlier messages a byte prefix of the new
 * ones. Returns the first difference, or undefined when `next` extends `previous`.
 */
function prefixBreak(previous: Body, next: Body): string | undefined {
  if (bytes(previous.system) !== bytes(next.system)) return 'system changed';
  const before = previous.tools ?? [];
  const after = next.tools ?? [];
  if (after.length < before.length) return `tools shrank from ${before.length} to ${after.length}`;
  for (const [index, tool] of before.entries())
    if (bytes(tool) !== bytes(after[index])) return `tools[${index}] changed`;
  if (next.messages.length < previous.messages.length) return 'messages shrank';
  for (const [index, message] of previous.messages.entries())
    if (bytes(message) !== bytes(next.messages[index]))
      return `messages[${index}] changed:\n${bytes(message).slice(0, 400)}\n→\n${bytes(next.messages[index]).slice(0, 400)}`;
  return undefined;
}

/** The agent's own requests (not a compaction's summary request), in order. */
function turnRequests(requests: readonly RecordedRequest[]): Body[] {
  return requests.map((request) => request.body as Body).filter((body) => !bytes(body).includes(SUMMARY_REQUEST));
}

/** Every break between consecutive requests, except right after the compactions listed by index. */
function breaks(bodies: readonly Body[], exempt: readonly number[] = []): string[] {
  const found: string[] = [];
  for (let index = 1; index < bodies.length; index++) {
    if (exempt.includes(index)) continue;
    const problem = prefixBreak(bodies[index - 1]!, bodies[index]!);
    if (problem) found.push(`request ${index + 1}: ${problem}`);
  }
  return found;
}

describe('the prompt-cache prefix never breaks (toolplane -p against a mock Anthropic server)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-prefix-'));
    project = join(home, 'project');
    await mkdir(project);
    await writeFile(join(project, 'a.txt'), 'alpha\n');
    await writeFile(join(project, 'b.txt'), 'beta\n');
    await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__project-tools'] } }));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const env = () => isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server!.baseURL });
  const read = (id: string, file: string): MockReply => ({
    content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: join(project, file) } }],
  });
  const run = (args: readonly string[]) =>
    runCli(['-p', ...args, '--settings', join(home, 'settings.json'), '--output-format', 'json'], {
      cwd: project,
      env: env(),
      timeoutMs: 60_000,
    });
  const mcpConfig = async (script: string, extraEnv: Record<string, string> = {}) => {
    const path = join(home, 'mcp.json');
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { 'project-tools': { command: process.execPath, args: [script], env: extraEnv } } }),
    );
    return path;
  };

  it('without deferred tools: every request extends the one before', async () => {
    server = await startMockAnthropicServer({
      replies: [
        read('r1', 'a.txt'),
        read('r2', 'b.txt'),
        read('r3', 'a.txt'),
        { content: [{ type: 'text', text: 'ok' }] },
      ],
    });
    const result = await run(['read the files']);
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success' });
    const bodies = turnRequests(server.requests);
    expect(bodies).toHaveLength(4);
    expect(breaks(bodies)).toEqual([]);
    // No deferred tool and no MCP server: no ToolSearch, and no word of it in the prompt.
    expect(bodies[0]!.tools!.map((tool) => (tool as { name: string }).name)).not.toContain('ToolSearch');
    expect(bytes(bodies)).not.toContain('ToolSearch');
  });

  it('with deferred MCP tools: announced once in the history, discovery only appends to tools[]', async () => {
    const config = await mcpConfig(demoServer);
    server = await startMockAnthropicServer({
      replies: [
        read('r1', 'a.txt'),
        {
          content: [
            {
              type: 'tool_use',
              id: 'ts',
              name: 'ToolSearch',
              input: { query: 'select:mcp__project-tools__count_lines' },
            },
          ],
        },
        {
          expect: { tools: ['mcp__project-tools__count_lines'] },
          content: [{ type: 'tool_use', id: 'cl', name: 'mcp__project-tools__count_lines', input: { path: project } }],
        },
        read('r2', 'b.txt'),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const result = await run(['count the lines', '--mcp-config', config]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    const bodies = turnRequests(server.requests);
    expect(bodies).toHaveLength(5);
    expect(breaks(bodies)).toEqual([]);
    // Each tool announced once in the whole history, however many requests carried it.
    const last = bytes(bodies[4]!.messages);
    expect(last.split('- mcp__project-tools__count_lines').length - 1).toBe(1);
    expect(bodies[4]!.tools!.length).toBe(bodies[0]!.tools!.length + 1);
  });

  it('on an OpenAI-compatible server too: discovered tools join tools[] at its end as full schemas', async () => {
    const config = await mcpConfig(demoServer);
    server = await startMockOpenAIServer({
      replies: [
        read('r1', 'a.txt'),
        {
          content: [
            {
              type: 'tool_use',
              id: 'ts',
              name: 'ToolSearch',
              input: { query: 'select:mcp__project-tools__count_lines' },
            },
          ],
        },
        {
          expect: { tools: ['mcp__project-tools__count_lines'] },
          content: [{ type: 'tool_use', id: 'cl', name: 'mcp__project-tools__count_lines', input: { path: project } }],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const result = await runCli(
      ['-p', 'count', '--mcp-config', config, '--settings', join(home, 'settings.json'), '--output-format', 'json'],
      { cwd: project, env: isolatedEnv(home, { OPENAI_BASE_URL: server.baseURL }), timeoutMs: 60_000 },
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    const bodies = turnRequests(server.requests);
    expect(bodies).toHaveLength(4);
    expect(breaks(bodies)).toEqual([]);
    expect(bodies[3]!.tools!.length).toBe(bodies[0]!.tools!.length + 1);
    expect(bytes(bodies[3]!.tools!.at(-1))).toContain('"parameters"');
  });

  it('with an MCP server that connects late: its tools come as a delta, the prefix holds', async () => {
    const config = await mcpConfig(lateServer, { LATE_MCP_DELAY_MS: '2500' });
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: 'sleep 5', timeout: 20_000 } }] },
        read('r1', 'a.txt'),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const result = await run(['wait for the server', '--mcp-config', config]);
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success' });
    const bodies = turnRequests(server.requests);
    expect(bodies).toHaveLength(3);
    expect(breaks(bodies)).toEqual([]);
    const first = bytes(bodies[0]!.messages);
    const last = bytes(bodies[2]!.messages);
    expect(first).toContain('MCP servers still connecting');
    expect(first).not.toContain('mcp__project-tools__count_lines');
    expect(last).toContain('- mcp__project-tools__count_lines');
    expect(last).toContain('Every MCP server has finished connecting.');
    expect(last.split('<deferred-tools>').length - 1).toBe(2);
    expect(bytes(bodies[2]!.tools)).toBe(bytes(bodies[0]!.tools));
  });

  it('across a compaction (a new prefix once, then stable) and a resume', async () => {
    const config = await mcpConfig(demoServer);
    server = await startMockAnthropicServer({
      replies: [
        { usage: { input_tokens: 190_000 }, ...read('r1', 'a.txt') },
        { content: [{ type: 'text', text: 'SUMMARY: read a.txt.' }] },
        read('r2', 'b.txt'),
        read('r3', 'a.txt'),
        { content: [{ type: 'text', text: 'first run done' }] },
        // The resumed run.
        read('r4', 'b.txt'),
        { content: [{ type: 'text', text: 'second run done' }] },
      ],
    });
    const first = await run(['read twice', '--mcp-config', config]);
    expect(JSON.parse(first.stdout)).toMatchObject({ subtype: 'success', result: 'first run done' });
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const second = await run(['once more', '--resume', sessionId, '--mcp-config', config]);
    expect(JSON.parse(second.stdout)).toMatchObject({ subtype: 'success', result: 'second run done' });
    expect(server.requests.some((request) => bytes(request.body).includes(SUMMARY_REQUEST))).toBe(true);
    const bodies = turnRequests(server.requests);
    expect(bodies).toHaveLength(6);
    // Request 2 is the first after the compaction: a new prefix. Request 5 is the resumed run's
    // first: it must extend the last request before it, like any other.
    expect(prefixBreak(bodies[0]!, bodies[1]!)).toBeDefined();
    expect(breaks(bodies, [1])).toEqual([]);
    expect(bytes(bodies[1]!.messages)).toContain('<deferred-tools>');
  });
});
