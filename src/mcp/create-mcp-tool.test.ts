import { fileURLToPath } from 'node:url';
import { createCallContext } from '../testing/call-context.js';
import { nextMcpEvent } from '../testing/next-mcp-event.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyTool, ToolCallContext } from '../contract/tool.js';
import { createMcpManager } from './mcp-manager.js';
import type { McpManager } from './mcp-manager.js';
import type { McpServerEntry } from './merge-mcp-configs.js';
import { createMcpTool } from './create-mcp-tool.js';
import { fingerprintMcpTool } from './fingerprint-mcp-tool.js';
import { getInputParser } from '../schema/parse-input.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/test-server.mjs', import.meta.url));

function entry(
  name: string,
  options: { env?: Record<string, string>; defer?: boolean; alwaysLoad?: string[] } = {},
): McpServerEntry {
  return {
    name,
    scope: 'user',
    file: 'user.json',
    fromWorkspace: false,
    config: {
      type: 'stdio',
      command: process.execPath,
      args: [SERVER],
      env: options.env ?? {},
      defer: options.defer ?? true,
      alwaysLoad: options.alwaysLoad ?? [],
    },
  };
}

function context(): ToolCallContext {
  return createCallContext({ toolUseId: 'toolu_1', cwd: process.cwd() });
}

describe('MCP tools from a real stdio server', () => {
  let manager: McpManager;
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
  const run = async (name: string, input: unknown) => {
    const tool = find(name);
    return tool.mapResult(await tool.call(input, context()), 'toolu_1');
  };

  beforeAll(async () => {
    manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [
        entry('test', { alwaysLoad: ['pid'] }),
        entry('clash', { env: { TEST_SERVER_COLLIDING_TOOLS: '1' }, defer: false }),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
  });
  afterAll(async () => {
    await manager.close();
  });

  it('names tools mcp__<server>__<tool> and carries the structured pair', () => {
    const echo = find('mcp__test__echo');
    expect(echo.origin).toBe('external');
    expect(echo.external).toEqual({ server: 'test', tool: 'echo' });
    expect(echo.prompt).toBe('Echoes its text.');
    expect(echo.inputSchema).toMatchObject({
      kind: 'json-schema',
      schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(echo.userFacingName(undefined)).toBe('test - echo (MCP)');
  });

  it("has its server's JSON Schema validated by the schema stage", () => {
    const parse = getInputParser(find('mcp__test__echo'));
    expect(parse({ text: 'hi' })).toEqual({ ok: true, value: { text: 'hi' } });
    const wrong = parse({ text: 3 });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.message).toMatch(/text/);
    for (const tool of manager.tools()) {
      const result = getInputParser(tool)({});
      expect(result.ok ? '' : result.message).not.toMatch(/input schema is invalid/);
    }
  });

  it('answers an input that is not an object without calling the server', async () => {
    expect(await run('mcp__test__echo', ['not', 'an', 'object'])).toEqual({
      content: 'The input of tool "echo" on MCP server "test" must be a JSON object.',
      isError: true,
    });
  });

  it('honours annotations for scheduling and display but never for permissions', async () => {
    const echo = find('mcp__test__echo');
    const destroy = find('mcp__test__delete_everything');
    const plain = find('mcp__test__env');
    expect([echo.isReadOnly({}), echo.isConcurrencySafe({}), echo.isDestructive({})]).toEqual([true, true, false]);
    expect([destroy.isReadOnly({}), destroy.isConcurrencySafe({}), destroy.isDestructive({})]).toEqual([
      false,
      false,
      true,
    ]);
    expect([plain.isReadOnly({}), plain.isConcurrencySafe({}), plain.isDestructive({})]).toEqual([false, false, false]);
    const { signal: _signal, reportProgress: _report, ...check } = context();
    expect(await echo.checkPermissions({ text: 'x' }, { ...check, signal: _signal })).toEqual({
      behavior: 'passthrough',
    });
  });

  it('defers MCP tools unless the server config loads them upfront', () => {
    expect([find('mcp__test__echo').shouldDefer, find('mcp__test__echo').alwaysLoad]).toEqual([true, false]);
    expect([find('mcp__test__pid').shouldDefer, find('mcp__test__pid').alwaysLoad]).toEqual([false, true]);
    expect(find('mcp__clash__echo').alwaysLoad).toBe(true);
  });

  it('keeps two tools whose names sanitize alike distinct and callable', async () => {
    const names = manager.servers().find((server) => server.name === 'clash')?.toolNames ?? [];
    const clashing = names.filter((name) => name.startsWith('mcp__clash__a_b'));
    expect(clashing).toHaveLength(2);
    expect(clashing[0]).toBe('mcp__clash__a_b');
    expect(clashing[1]).toMatch(/^mcp__clash__a_b_[0-9a-f]{8}$/);
    const answers = await Promise.all(clashing.map(async (name) => (await run(name, {})).content));
    expect(answers.sort()).toEqual(['a.b ran', 'a_b ran']);
  });

  it('reports the collision as an event', async () => {
    const other = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [entry('clash', { env: { TEST_SERVER_COLLIDING_TOOLS: '1' } })],
    });
    try {
      const collision = await nextMcpEvent(other, 'tool-name-collision');
      expect(collision.collision).toMatchObject({
        name: 'mcp__clash__a_b',
        kept: { server: 'clash', tool: 'a.b' },
        renamed: { server: 'clash', tool: 'a_b' },
      });
    } finally {
      await other.close();
    }
  });

  it('compares first sight with fingerprints stored from an earlier approval', async () => {
    const other = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [entry('test')],
      knownFingerprints: new Map([
        ['mcp__test__echo', 'fingerprint-approved-last-week'],
        ['mcp__test__pid', 'unchanged'],
      ]),
      isApproved: () => true,
    });
    try {
      const event = await nextMcpEvent(other, 'tool-definition-change');
      expect(event).toMatchObject({
        name: 'mcp__test__echo',
        previousFingerprint: 'fingerprint-approved-last-week',
        approved: true,
      });
    } finally {
      await other.close();
    }
  });

  it('caps long descriptions', async () => {
    const other = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [entry('test')],
      maxDescriptionChars: 10,
    });
    try {
      await other.whenSettled({ signal: AbortSignal.timeout(15_000) });
      expect(other.tools().find((tool) => tool.name === 'mcp__test__echo')?.prompt).toBe('Echoes it…');
    } finally {
      await other.close();
    }
  });
});

describe('fingerprintMcpTool', () => {
  it('ignores key order and changes with the description', () => {
    const a = fingerprintMcpTool({
      name: 't',
      description: 'd',
      inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
    });
    const b = fingerprintMcpTool({
      name: 't',
      inputSchema: { properties: { x: { type: 'string' } }, type: 'object' },
      description: 'd',
    });
    const c = fingerprintMcpTool({
      name: 't',
      description: 'D',
      inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
    });
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe('createMcpTool on its own', () => {
  const unavailable = () => ({ status: 'unavailable', reason: 'still connecting' }) as const;
  const base = {
    server: 's',
    name: 'mcp__s__t',
    lookupClient: unavailable,
    callTimeoutMs: 1000,
    shouldDefer: true,
    alwaysLoad: false,
  };

  it('falls back to the title, then to a plain sentence, for a missing or blank description', () => {
    const titled = createMcpTool({
      ...base,
      definition: { name: 't', title: 'Do The Thing', description: '  ', inputSchema: { type: 'object' } },
    });
    expect(titled.prompt).toBe('Do The Thing');
    expect(titled.searchHint).toBe('Do The Thing');
    const bare = createMcpTool({ ...base, definition: { name: 't', inputSchema: { type: 'object' } } });
    expect(bare.prompt).toBe('Tool t from MCP server s.');
    expect(bare.searchHint).toBeUndefined();
  });

  it('answers a call to a server that is not connected with the reason', async () => {
    const tool = createMcpTool({ ...base, definition: { name: 't', inputSchema: { type: 'object' } } });
    expect(tool.mapResult(await tool.call({}, context()), 'toolu_1')).toEqual({
      content: 'MCP server "s" is not connected: still connecting. Try again later or use another tool.',
      isError: true,
    });
  });
});
