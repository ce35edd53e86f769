import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createCallContext } from '../testing/call-context.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyTool, ToolCallContext } from '../contract/tool.js';
import type { McpServerEntry } from './merge-mcp-configs.js';
import type { McpConfigScope } from './merge-mcp-configs.js';
import { createMcpManager } from './mcp-manager.js';
import type { McpManager } from './mcp-manager.js';
import type { McpManagerEvent, McpManagerOptions } from './mcp-manager-types.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/test-server.mjs', import.meta.url));

function entry(options: {
  name?: string;
  env?: Record<string, string>;
  scope?: McpConfigScope;
  command?: string;
  timeoutMs?: number;
}): McpServerEntry {
  const scope = options.scope ?? 'user';
  return {
    name: options.name ?? 'test',
    scope,
    file: `${scope}.json`,
    fromWorkspace: scope === 'project' || scope === 'local',
    config: {
      type: 'stdio',
      command: options.command ?? process.execPath,
      args: [SERVER],
      env: options.env ?? {},
      defer: true,
      alwaysLoad: [],
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    },
  };
}

function context(signal: AbortSignal = new AbortController().signal): ToolCallContext {
  return createCallContext({ toolUseId: 'toolu_1', cwd: process.cwd(), signal });
}

/** Resolves once `predicate` holds (checked now and after every event); a guard keeps a broken test from hanging. */
function until(manager: McpManager, predicate: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate()) return resolve();
    const guard = setTimeout(() => {
      unsubscribe();
      reject(new Error(`condition not reached; servers: ${JSON.stringify(manager.servers())}`));
    }, 15_000);
    const unsubscribe = manager.subscribe(() => {
      if (!predicate()) return;
      clearTimeout(guard);
      unsubscribe();
      resolve();
    });
  });
}

async function callText(tool: AnyTool | undefined, input: unknown = {}): Promise<{ text: string; isError: boolean }> {
  if (tool === undefined) throw new Error('tool missing');
  const mapped = tool.mapResult(await tool.call(input, context()), 'toolu_1');
  return {
    text: typeof mapped.content === 'string' ? mapped.content : JSON.stringify(mapped.content),
    isError: mapped.isError === true,
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('createMcpManager', () => {
  const managers: McpManager[] = [];
  let dir: string;
  const start = (options: Partial<McpManagerOptions> & Pick<McpManagerOptions, 'servers'>): McpManager => {
    const manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      connectTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 20, maxAttempts: 3 },
      ...options,
    });
    managers.push(manager);
    return manager;
  };
  const tool = (manager: McpManager, name: string): AnyTool | undefined =>
    manager.tools().find((candidate) => candidate.name === name);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolplane-mcp-'));
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('returns at once with the server pending, then connects it and lists its tools', async () => {
    const manager = start({ servers: [entry({ env: { TEST_SERVER_START_DELAY_MS: '300' } })] });
    const states: string[] = [];
    manager.subscribe((event) => {
      if (event.type === 'server-state-change') states.push(event.state.status);
    });
    expect(manager.servers()[0]?.state).toEqual({ status: 'pending' });
    expect(manager.tools()).toEqual([]);
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    expect(states).toEqual(['connected']);
    const snapshot = manager.servers()[0];
    expect(snapshot).toMatchObject({
      name: 'test',
      scope: 'user',
      file: 'user.json',
      transport: 'stdio',
      state: { status: 'connected' },
      serverInfo: { name: 'toolplane-test-server', version: '1.0.0' },
      instructions: 'Tools for testing toolplane.',
    });
    expect(snapshot?.toolNames).toContain('mcp__test__echo');
    expect(await callText(tool(manager, 'mcp__test__echo'), { text: 'hello' })).toEqual({
      text: 'hello',
      isError: false,
    });
  });

  it('marks a server whose command does not exist as failed, with the reason', async () => {
    const manager = start({ servers: [entry({ command: join(dir, 'no-such-binary') })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const state = manager.servers()[0]?.state;
    expect(state?.status).toBe('failed');
    expect(state?.status === 'failed' && state.reason).toMatch(/ENOENT/);
  });

  it('marks a server that exits at start as failed, quoting its stderr', async () => {
    const manager = start({ servers: [entry({ env: { TEST_SERVER_FAIL_MESSAGE: 'missing API token' } })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const state = manager.servers()[0]?.state;
    expect(state?.status === 'failed' && state.reason).toMatch(/missing API token/);
  });

  it('marks a server that does not connect in time as failed', async () => {
    const manager = start({ connectTimeoutMs: 200, servers: [entry({ env: { TEST_SERVER_START_DELAY_MS: '5000' } })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const state = manager.servers()[0]?.state;
    expect(state?.status === 'failed' && state.reason).toMatch(/did not finish connecting within 200 ms/);
  });

  it('gives a stdio server only its configured env plus a safe base, never provider or collector credentials', async () => {
    const baseEnv = {
      PATH: process.env['PATH'],
      HOME: '/home/test',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      OPENAI_API_KEY: 'sk-secret',
      AWS_SECRET_ACCESS_KEY: 'x',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer otel-secret',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-api-key=otel-secret',
    };
    const manager = start({ baseEnv, servers: [entry({ env: { FOO: 'bar' } })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const reported = JSON.parse((await callText(tool(manager, 'mcp__test__env'))).text) as Record<string, string>;
    expect(reported['FOO']).toBe('bar');
    expect(reported['HOME']).toBe('/home/test');
    expect(reported['PATH']).toBe(process.env['PATH']);
    expect(Object.keys(reported).filter((key) => /KEY|SECRET|TOKEN|HEADERS/.test(key))).toEqual([]);
    expect(JSON.stringify(reported)).not.toContain('otel-secret');
  });

  it('reconnects a server that crashes, with the drop visible as a pending attempt', async () => {
    const launches = join(dir, 'launches');
    const manager = start({
      servers: [entry({ env: { TEST_SERVER_CRASH_AFTER_CALLS: '1', TEST_SERVER_LAUNCH_FILE: launches } })],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const events: McpManagerEvent[] = [];
    manager.subscribe((event) => events.push(event));
    const echo = tool(manager, 'mcp__test__echo');
    expect((await callText(echo, { text: 'once' })).text).toBe('once');
    await until(manager, () =>
      events.some((event) => event.type === 'server-state-change' && event.state.status === 'connected'),
    );
    const states = events.flatMap((event) => (event.type === 'server-state-change' ? [event.state] : []));
    expect(states[0]).toMatchObject({ status: 'pending', attempt: 1 });
    expect(states[0]?.status === 'pending' && states[0].lastError).toMatch(
      /closed the connection.*crashing after 1 calls/,
    );
    expect((await readFile(launches, 'utf8')).trim().split('\n')).toHaveLength(2);
    // The tool object from before the crash reaches the new connection.
    expect((await callText(echo, { text: 'again' })).text).toBe('again');
  });

  it('answers a call cut by a crash, and calls while reconnecting, with error results that say why', async () => {
    const manager = start({ reconnect: { initialDelayMs: 60_000, maxAttempts: 3 }, servers: [entry({})] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const cut = await callText(tool(manager, 'mcp__test__crash'));
    expect(cut).toEqual({
      text: 'MCP server "test" closed the connection during the call of crash; it is being reconnected. Check whether the call had an effect before retrying.',
      isError: true,
    });
    await until(manager, () => manager.servers()[0]?.state.status === 'pending');
    const waiting = await callText(tool(manager, 'mcp__test__echo'), { text: 'x' });
    expect(waiting.isError).toBe(true);
    expect(waiting.text).toMatch(
      /^MCP server "test" is not connected: reconnecting \(attempt 1 of 3\) after: the server closed the connection \(stderr: crashing during a call\)\. Try again later/,
    );
  });

  it('gives up after the bounded attempts, drops the tools, and answers calls with the reason', async () => {
    const launches = join(dir, 'launches');
    const manager = start({
      reconnect: { initialDelayMs: 10, maxAttempts: 2 },
      servers: [
        entry({
          env: { TEST_SERVER_CRASH_AFTER_CALLS: '1', TEST_SERVER_LAUNCH_FILE: launches, TEST_SERVER_MAX_LAUNCHES: '1' },
        }),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const echo = tool(manager, 'mcp__test__echo');
    await callText(echo, { text: 'once' });
    await until(manager, () => manager.servers()[0]?.state.status === 'failed');
    const state = manager.servers()[0]?.state;
    expect(state?.status === 'failed' && state.reason).toMatch(
      /refusing launch 3: only 1 allowed.*gave up after 2 reconnect attempts/,
    );
    expect((await readFile(launches, 'utf8')).trim().split('\n')).toHaveLength(3);
    expect(manager.tools()).toEqual([]);
    const answer = await callText(echo, { text: 'x' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^MCP server "test" is not connected: .*gave up after 2 reconnect attempts\. Try again later/,
    );
  });

  it('counts attempts across reconnects that do not stay up, so a server crashing after each start gives up', async () => {
    const launches = join(dir, 'launches');
    const manager = start({
      reconnect: { initialDelayMs: 10, maxAttempts: 3 },
      servers: [entry({ env: { TEST_SERVER_CRASH_AFTER_MS: '300', TEST_SERVER_LAUNCH_FILE: launches } })],
    });
    const attempts: number[] = [];
    manager.subscribe((event) => {
      if (event.type === 'server-state-change' && event.state.status === 'pending')
        attempts.push(event.state.attempt ?? 0);
    });
    await until(manager, () => manager.servers()[0]?.state.status === 'failed');
    expect(attempts).toEqual([1, 2, 3]);
    const state = manager.servers()[0]?.state;
    expect(state?.status === 'failed' && state.reason).toMatch(
      /crashing on a timer.*gave up after 3 reconnect attempts/,
    );
    expect((await readFile(launches, 'utf8')).trim().split('\n')).toHaveLength(4);
  });

  it('warns when a list_changed refresh fails, keeping the tools it had', async () => {
    const manager = start({ servers: [entry({})] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const before = manager.tools();
    const warned = new Promise<McpManagerEvent>((resolve) =>
      manager.subscribe((event) => event.type === 'server-warning' && resolve(event)),
    );
    await callText(tool(manager, 'mcp__test__break_list'), { mode: 'tools-error' });
    expect(await warned).toEqual({
      type: 'server-warning',
      server: 'test',
      message: 'could not refresh the tool list after list_changed: tool list unavailable',
    });
    expect(manager.tools()).toBe(before);
  });

  it('keeps one tool when a server lists it twice, and warns', async () => {
    const manager = start({ servers: [entry({})] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const warned = new Promise<McpManagerEvent>((resolve) =>
      manager.subscribe((event) => event.type === 'server-warning' && resolve(event)),
    );
    await callText(tool(manager, 'mcp__test__break_list'), { mode: 'tools-duplicate' });
    expect(await warned).toEqual({
      type: 'server-warning',
      server: 'test',
      message: 'lists tool "echo" more than once; the first definition is used',
    });
    expect(manager.tools().filter((candidate) => candidate.name.startsWith('mcp__test__echo'))).toHaveLength(1);
  });

  it('names a server whose resource listing fails, and lists the others', async () => {
    const manager = start({ servers: [entry({ name: 'broken' }), entry({ name: 'fine' })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    await callText(tool(manager, 'mcp__broken__break_list'), { mode: 'resources-error' });
    const listed = await manager.listResources({ signal: AbortSignal.timeout(15_000) });
    expect(listed).toEqual({
      ok: true,
      listing: {
        resources: [
          {
            server: 'fine',
            uri: 'test://doc/1',
            name: 'first doc',
            mimeType: 'text/plain',
            description: 'the first doc',
          },
        ],
        unavailable: [{ server: 'broken', reason: 'resources/list failed: resource list unavailable' }],
      },
    });
  });

  it('reconnects on request with a new process', async () => {
    const manager = start({ servers: [entry({})] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const first = Number((await callText(tool(manager, 'mcp__test__pid'))).text);
    manager.reconnect('test');
    await until(manager, () => manager.servers()[0]?.state.status === 'pending');
    await until(manager, () => manager.servers()[0]?.state.status === 'connected');
    const second = Number((await callText(tool(manager, 'mcp__test__pid'))).text);
    expect(second).not.toBe(first);
    await until(manager, () => !alive(first));
  });

  it('does not start workspace servers in an untrusted workspace, nor disabled ones', async () => {
    const launches = join(dir, 'launches');
    const manager = start({
      trusted: false,
      disabledServers: ['off'],
      servers: [
        entry({ name: 'project', scope: 'project', env: { TEST_SERVER_LAUNCH_FILE: launches } }),
        entry({ name: 'local', scope: 'local', env: { TEST_SERVER_LAUNCH_FILE: launches } }),
        entry({ name: 'off', env: { TEST_SERVER_LAUNCH_FILE: launches } }),
        entry({ name: 'user' }),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    expect(manager.servers().map((server) => [server.name, server.state])).toEqual([
      ['local', { status: 'disabled', reason: 'not started: workspace not trusted' }],
      ['off', { status: 'disabled', reason: 'not started: disabled' }],
      ['project', { status: 'disabled', reason: 'not started: workspace not trusted' }],
      ['user', { status: 'connected' }],
    ]);
    await expect(readFile(launches, 'utf8')).rejects.toThrow(/ENOENT/);
    manager.reconnect('project');
    expect(manager.servers()[2]?.state.status).toBe('disabled');
  });

  it('never starts a server whose name would make tool names ambiguous, even when a host builds the entry itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolplane-mcp-names-'));
    const launches = join(dir, 'launches');
    const manager = start({
      servers: [
        entry({ name: 'docs__admin', env: { TEST_SERVER_LAUNCH_FILE: launches } }),
        entry({ name: 'docs-admin' }),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    expect(manager.servers().map((server) => [server.name, server.state.status])).toEqual([
      ['docs-admin', 'connected'],
      ['docs__admin', 'disabled'],
    ]);
    expect(manager.tools().some((tool) => tool.name.startsWith('mcp__docs__'))).toBe(false);
    await expect(readFile(launches, 'utf8')).rejects.toThrow(/ENOENT/);
    await rm(dir, { recursive: true, force: true });
  });

  it('stops every server process on close and empties the tools', async () => {
    const manager = start({ servers: [entry({ name: 'a' }), entry({ name: 'b' })] });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const pids = await Promise.all(
      ['a', 'b'].map(async (name) => Number((await callText(tool(manager, `mcp__${name}__pid`))).text)),
    );
    expect(pids.every(alive)).toBe(true);
    await manager.close();
    expect(pids.some(alive)).toBe(false);
    expect(manager.tools()).toEqual([]);
    await manager.close();
  });

  it('closes a server still connecting without leaving its process behind', async () => {
    const launches = join(dir, 'launches');
    const manager = start({
      servers: [entry({ env: { TEST_SERVER_START_DELAY_MS: '5000', TEST_SERVER_LAUNCH_FILE: launches } })],
    });
    let pid: number | undefined;
    while (pid === undefined) {
      pid = Number((await readFile(launches, 'utf8').catch(() => '')).trim()) || undefined;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const settled = manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    await manager.close();
    await settled;
    expect(alive(pid)).toBe(false);
  });
});
