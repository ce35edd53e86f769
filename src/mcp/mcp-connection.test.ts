import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { createMcpConnection, type McpConnection } from './mcp-connection.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/test-server.mjs', import.meta.url));

describe('createMcpConnection', () => {
  const connections: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });

  it('leaves no abort listener behind per list_changed refresh, however many the server sends', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      let tools: readonly McpToolDefinition[] = [];
      let toolsChanged = () => undefined as void;
      const connection = createMcpConnection({
        name: 'test',
        config: { type: 'stdio', command: process.execPath, args: [SERVER], env: {}, defer: true, alwaysLoad: [] },
        baseEnv: { PATH: process.env['PATH'] },
        cwd: undefined,
        clientInfo: { name: 'toolplane-test', version: '0.0.0' },
        connectTimeoutMs: 10_000,
        reconnect: { maxAttempts: 1, initialDelayMs: 20, maxDelayMs: 100, stableAfterMs: 60_000 },
        listener: {
          onState: () => undefined,
          onTools: (next) => {
            tools = next;
            toolsChanged();
          },
          onWarning: () => undefined,
        },
      });
      connections.push(connection);
      connection.start();
      for (let attempt = 0; attempt < 400 && connection.client() === undefined; attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const client = connection.client();
      if (client === undefined) throw new Error(`not connected: ${JSON.stringify(connection.state())}`);
      for (let index = 0; index < 15; index += 1) {
        const name = `added_${index}`;
        const listed = new Promise<void>((resolve) => {
          toolsChanged = () => {
            if (tools.some((tool) => tool.name === name)) resolve();
          };
        });
        await client.callTool({ name: 'add_tool', arguments: { name } }, CallToolResultSchema);
        await listed;
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
