import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callToolText as call } from '../testing/call-tool-text.js';
import type { McpServerState } from './mcp-connection.js';
import { createMcpManager, type McpManager } from './mcp-manager.js';
import type { McpManagerEvent } from './mcp-manager-types.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/uneven-tools-server.mjs', import.meta.url));

describe('a real stdio MCP server with malformed tools and an oversized answer', () => {
  const managers: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
  });

  async function start(maxMessageBytes?: number) {
    const manager = createMcpManager({
      trusted: true,
      baseEnv: process.env,
      cwd: process.cwd(),
      connectTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 20, maxAttempts: 3 },
      ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
      servers: [
        {
          name: 'uneven',
          scope: 'user',
          file: 'user.json',
          fromWorkspace: false,
          config: { type: 'stdio', command: process.execPath, args: [SERVER], env: {}, defer: false, alwaysLoad: [] },
        },
      ],
    });
    managers.push(manager);
    const events: McpManagerEvent[] = [];
    manager.subscribe((event) => events.push(event));
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const tool = (name: string) => manager.tools().find((candidate) => candidate.name === name);
    return { manager, events, tool };
  }

  /** Resolves when the server is connected again. */
  function reconnected(manager: McpManager): Promise<void> {
    return new Promise((resolve) => {
      const stop = manager.subscribe((event) => {
        if (event.type === 'server-state-change' && event.state.status === 'connected') {
          stop();
          resolve();
        }
      });
    });
  }

  it('skips each malformed tool with a notice naming the server and the tool; the others stay', async () => {
    const { manager, events, tool } = await start();
    expect(manager.servers()[0]!.state).toEqual({ status: 'connected' } satisfies McpServerState);
    expect(manager.tools().map((candidate) => candidate.name)).toEqual(['mcp__uneven__echo', 'mcp__uneven__big']);
    const notices = events.flatMap((event) =>
      event.type === 'server-warning' ? [`${event.server}: ${event.message}`] : [],
    );
    expect(notices).toHaveLength(5);
    expect(notices[0]).toMatch(
      /^uneven: skipped tool "no_schema": it is not a valid MCP tool definition \(inputSchema/,
    );
    expect(notices[1]).toMatch(/^uneven: skipped tool #3 \(it has no name\): it is not a valid MCP tool definition/);
    expect(notices[2]).toMatch(/^uneven: skipped tool "bad_schema": its inputSchema is not a valid JSON Schema/);
    expect(notices[3]).toMatch(/^uneven: skipped tool "n{80}": its name must be 1 to 128 characters/);
    expect(notices[4]).toMatch(/^uneven: skipped tool "tab\\tname": its name must be/);
    for (const notice of notices) expect(notice).toContain('its other tools are available');
    expect(await call(tool('mcp__uneven__echo'), { text: 'hello' })).toEqual({ text: 'hello', isError: false });
  });

  it.for([
    { limit: 'the SDK’s buffer (10 MiB)', maxMessageBytes: undefined, bytes: 11 * 1024 * 1024, shown: 10485760 },
    { limit: 'a limit of 64 KiB', maxMessageBytes: 65_536, bytes: 200_000, shown: 65536 },
  ])('an answer over $limit is a clear "too large" result, not a closed server', async (case_) => {
    const { manager, tool } = await start(case_.maxMessageBytes);
    const back = reconnected(manager);
    const result = await call(tool('mcp__uneven__big'), { bytes: case_.bytes });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      `The result of tool "big" on MCP server "uneven" was too large: it sent a message over ${case_.shown} bytes`,
    );
    expect(result.text).not.toMatch(/closed the connection/);
    await back;
    expect(await call(tool('mcp__uneven__echo'), { text: 'still here' })).toEqual({
      text: 'still here',
      isError: false,
    });
    expect(await call(tool('mcp__uneven__big'), { bytes: 1_000 })).toMatchObject({ isError: false });
  });
});
