import { fileURLToPath } from 'node:url';
import { callToolText as callText } from '../testing/call-tool-text.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpManager, type McpManager } from './mcp-manager.js';
import type { McpServerState } from './mcp-connection.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/malformed-result-server.mjs', import.meta.url));

describe('an MCP tool whose server answers with a malformed result', () => {
  const managers: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
  });

  it('is an error result about that answer, and the working connection is kept', async () => {
    const manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      connectTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 20, maxAttempts: 3 },
      servers: [
        {
          name: 'odd',
          scope: 'user',
          file: 'user.json',
          fromWorkspace: false,
          config: { type: 'stdio', command: process.execPath, args: [SERVER], env: {}, defer: true, alwaysLoad: [] },
        },
      ],
    });
    managers.push(manager);
    const states: McpServerState['status'][] = [];
    manager.subscribe((event) => {
      if (event.type === 'server-state-change') states.push(event.state.status);
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const tool = (name: string) => manager.tools().find((candidate) => candidate.name === name);
    const pid = await callText(tool('mcp__odd__pid'));
    const bad = await callText(tool('mcp__odd__bad'));
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(
      /MCP server "odd" answered the call of bad with a result that is not a valid MCP tool result/,
    );
    expect(bad.text).not.toMatch(/reconnect/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(states).toEqual(['connected']);
    expect(await callText(tool('mcp__odd__pid'))).toEqual(pid);
  });
});
