import { spawn } from 'node:child_process';
import { createCallContext } from '../testing/call-context.js';
import { nextMcpEvent } from '../testing/next-mcp-event.js';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyTool, ToolCallContext, ToolProgress } from '../contract/tool.js';
import type { McpServerConfig } from './mcp-config.js';
import { createMcpManager } from './mcp-manager.js';
import type { McpManager } from './mcp-manager.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/test-server.mjs', import.meta.url));

type Transport = 'stdio' | 'http' | 'sse';

/** Starts the test server over HTTP as a real subprocess; resolves with its base URL. */
async function startHttpServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env['PATH'], TEST_SERVER_TRANSPORT: 'http' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk);
    const match = /listening (\d+)/.exec(output);
    if (match !== null) return { child, url: `http://127.0.0.1:${match[1]}` };
  }
  throw new Error(`the test server did not start: ${output}`);
}

function context(options: { signal?: AbortSignal; progress?: (progress: ToolProgress) => void } = {}): ToolCallContext {
  return createCallContext({
    toolUseId: 'toolu_1',
    cwd: process.cwd(),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progress ? { onProgress: options.progress } : {}),
  });
}

/** The same behaviour over every transport: one contract suite, three implementations. */
describe.each<Transport>(['stdio', 'http', 'sse'])('MCP tools over %s', (transport) => {
  let manager: McpManager;
  let httpServer: ChildProcess | undefined;
  const approved = new Set(['mcp__test__echo']);
  const find = (name: string): AnyTool => {
    const found = manager.tools().find((tool) => tool.name === name);
    if (found === undefined)
      throw new Error(
        `${name} not in ${manager
          .tools()
          .map((tool) => tool.name)
          .join(', ')}`,
      );
    return found;
  };
  const run = async (name: string, input: unknown, ctx: ToolCallContext = context()) => {
    const tool = find(name);
    return tool.mapResult(await tool.call(input, ctx), 'toolu_1');
  };

  beforeAll(async () => {
    const common = { defer: true, alwaysLoad: [] };
    let config: McpServerConfig;
    if (transport === 'stdio') {
      config = { type: 'stdio', command: process.execPath, args: [SERVER], env: {}, ...common };
    } else {
      const started = await startHttpServer();
      httpServer = started.child;
      config = {
        type: transport,
        url: `${started.url}/${transport === 'http' ? 'mcp' : 'sse'}`,
        headers: {},
        ...common,
      };
    }
    manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [
        {
          name: 'quick',
          scope: 'user',
          file: 'user.json',
          fromWorkspace: false,
          config: { ...config, timeoutMs: 200 },
        },
        { name: 'test', scope: 'user', file: 'user.json', fromWorkspace: false, config },
      ],
      isApproved: (tool) => approved.has(tool.name),
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
  });
  afterAll(async () => {
    await manager.close();
    if (httpServer !== undefined && httpServer.exitCode === null) {
      const exited = once(httpServer, 'exit');
      httpServer.kill();
      await exited;
    }
  });

  it('connects and lists the tools', () => {
    expect(manager.servers().map((server) => [server.name, server.transport, server.state.status])).toEqual([
      ['quick', transport, 'connected'],
      ['test', transport, 'connected'],
    ]);
    expect(find('mcp__test__echo').external).toEqual({ server: 'test', tool: 'echo' });
  });

  it.each([
    ['text', 'plain text'],
    ['image', [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }]],
    ['audio', /^\[audio \(audio\/wav, 6 bytes\) not shown/],
    [
      'resource_link',
      '[Resource link: doc one test://doc/1 (text/plain; the first doc). Read it with ReadMcpResourceTool.]',
    ],
    ['resource_text', '[Resource test://doc/1 (text/plain)]\ndoc body'],
    [
      'resource_pdf',
      [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }],
    ],
    ['structured', '{\n  "temperature": 21,\n  "unit": "C"\n}'],
    ['structured_with_text', '21 C'],
    ['empty', ''],
  ])('maps %s content', async (kind, expected) => {
    const mapped = await run('mcp__test__content', { kind });
    expect(mapped.isError).toBeUndefined();
    if (expected instanceof RegExp) expect(mapped.content).toMatch(expected);
    else if (Array.isArray(expected)) expect(mapped.content).toMatchObject(expected);
    else expect(mapped.content).toBe(expected);
  });

  it('maps isError results to error results', async () => {
    expect(await run('mcp__test__content', { kind: 'error' })).toEqual({ content: 'the thing failed', isError: true });
  });

  it('answers arguments the server rejects with an error result', async () => {
    const mapped = await run('mcp__test__content', { kind: 'no-such-kind' });
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(/kind/);
  });

  const cancellations = async (server: string): Promise<number> =>
    Number((await run(`mcp__${server}__cancellations`, {})).content);
  /**
   * Over HTTP the cancel notification and the next request are separate POSTs that may be handled
   * in either order, so the count is read until it moves (or a few tries pass).
   */
  const cancellationsAfter = async (server: string, before: number): Promise<number> => {
    let count = await cancellations(server);
    for (let tries = 0; count === before && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      count = await cancellations(server);
    }
    return count;
  };

  it('reports progress and cancels over the protocol on abort', async () => {
    const before = await cancellations('test');
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    const slow = find('mcp__test__slow');
    const call = slow.call(
      {},
      context({
        signal: controller.signal,
        progress: (report) => {
          progress.push(report);
          controller.abort(new Error('turn aborted'));
        },
      }),
    );
    await expect(call).rejects.toThrow('turn aborted');
    expect(progress).toEqual([{ kind: 'mcp-progress', message: 'started', data: { progress: 1, total: 2 } }]);
    expect(await cancellationsAfter('test', before)).toBe(before + 1);
  });

  it('ends a call past its time limit with an error result, cancelling it on the server', async () => {
    const before = await cancellations('quick');
    const mapped = await run('mcp__quick__slow', {});
    expect(mapped).toEqual({
      content:
        'The tool "slow" on MCP server "quick" did not answer within 200 ms and was cancelled. Retry with a smaller request, or use another tool.',
      isError: true,
    });
    expect(await cancellationsAfter('quick', before)).toBe(before + 1);
  });

  it('refreshes the tools on list_changed and emits a change', async () => {
    const added = nextMcpEvent(manager, 'tools-change', (event) =>
      event.tools.some((tool) => tool.name === 'mcp__test__extra'),
    );
    await run('mcp__test__add_tool', { name: 'extra' });
    await added;
    expect((await run('mcp__test__extra', {})).content).toBe('extra ran');
    const removed = nextMcpEvent(
      manager,
      'tools-change',
      (event) => event.server === 'test' && !event.tools.some((tool) => tool.name === 'mcp__test__extra'),
    );
    await run('mcp__test__remove_tool', { name: 'extra' });
    await removed;
  });

  it('reports a changed definition of an approved tool, and rebuilds only that tool', async () => {
    const before = manager.tools();
    const oldEcho = find('mcp__test__echo');
    const change = nextMcpEvent(manager, 'tool-definition-change');
    await run('mcp__test__change_echo', { description: 'Echoes its text, and also sends it elsewhere.' });
    const event = await change;
    expect(event).toMatchObject({ server: 'test', tool: 'echo', name: 'mcp__test__echo', approved: true });
    expect(event.fingerprint).not.toBe(event.previousFingerprint);
    const newEcho = find('mcp__test__echo');
    expect(newEcho).not.toBe(oldEcho);
    expect(newEcho.prompt).toBe('Echoes its text, and also sends it elsewhere.');
    const unchanged = before.filter((tool) => tool.name !== 'mcp__test__echo');
    expect(unchanged.every((tool) => manager.tools().includes(tool))).toBe(true);
  });

  it('lists and reads resources', async () => {
    const listed = await manager.listResources({ server: 'test', signal: AbortSignal.timeout(15_000) });
    expect(listed).toEqual({
      ok: true,
      listing: {
        resources: [
          {
            server: 'test',
            uri: 'test://doc/1',
            name: 'first doc',
            mimeType: 'text/plain',
            description: 'the first doc',
          },
        ],
        unavailable: [],
      },
    });
    const read = await manager.readResource({
      server: 'test',
      uri: 'test://doc/1',
      signal: AbortSignal.timeout(15_000),
    });
    expect(read).toEqual({ ok: true, contents: [{ uri: 'test://doc/1', mimeType: 'text/plain', text: 'doc body' }] });
  });
});
