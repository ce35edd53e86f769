import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServices } from '../contract/services.js';
import type { AnyTool, ToolCallContext } from '../contract/tool.js';
import { createMcpManager } from './mcp-manager.js';
import type { McpManager } from './mcp-manager.js';
import type { McpRemoteServerConfig } from './mcp-config.js';
import type { McpServerEntry } from './merge-mcp-configs.js';

/** An MCP server over HTTP on 127.0.0.1: streamable HTTP at /mcp, HTTP+SSE at /sse and /messages. */
function startHttpMcpServer(port = 0): Promise<{ url: string; server: Server; seenAuthorization: string[] }> {
  const seenAuthorization: string[] = [];
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const build = (): McpServer => {
    const mcp = new McpServer({ name: 'http-test', version: '1.0.0' });
    mcp.registerTool(
      'greet',
      { description: 'Greets someone.', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
      async ({ name }) => ({
        content: [{ type: 'text', text: `hello ${name}` }],
      }),
    );
    mcp.registerTool('add_tool', { description: 'Adds a tool.' }, async () => {
      mcp.registerTool('late', { description: 'Added later.' }, async () => ({
        content: [{ type: 'text', text: 'late ran' }],
      }));
      return { content: [{ type: 'text', text: 'added' }] };
    });
    return mcp;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    seenAuthorization.push(req.headers.authorization ?? '');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/unauthorized') {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      await build().connect(transport);
      return;
    }
    if (url.pathname === '/messages') {
      const transport = sse.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) res.writeHead(404).end();
      else await transport.handlePostMessage(req, res);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void streamable.set(id, created),
      });
      await build().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seenAuthorization });
    });
  });
}

function entry(name: string, config: Omit<McpRemoteServerConfig, 'defer' | 'alwaysLoad'>): McpServerEntry {
  return {
    name,
    scope: 'user',
    file: 'user.json',
    fromWorkspace: false,
    config: { ...config, defer: true, alwaysLoad: [] },
  };
}

const context: ToolCallContext = {
  toolUseId: 'toolu_1',
  signal: new AbortController().signal,
  cwd: process.cwd(),
  sessionId: 's',
  agentId: 'main',
  permissionMode: 'default',
  services: createServices(),
  reportProgress: () => undefined,
};

describe('MCP over HTTP', () => {
  let http: Awaited<ReturnType<typeof startHttpMcpServer>>;
  let manager: McpManager;
  const find = (name: string): AnyTool => {
    const found = manager.tools().find((tool) => tool.name === name);
    if (found === undefined) throw new Error(`${name} not found`);
    return found;
  };

  beforeAll(async () => {
    http = await startHttpMcpServer();
    manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      connectTimeoutMs: 5_000,
      servers: [
        entry('streamable', {
          type: 'http',
          url: `${http.url}/mcp`,
          headers: { Authorization: 'Bearer streamable-token' },
        }),
        entry('legacy', { type: 'sse', url: `${http.url}/sse`, headers: { Authorization: 'Bearer sse-token' } }),
        entry('refused', { type: 'http', url: `${http.url}/unauthorized`, headers: {} }),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
  });
  afterAll(async () => {
    await manager.close();
    http.server.closeAllConnections();
    await new Promise((resolve) => http.server.close(resolve));
  });

  it('connects over streamable HTTP with the configured headers and calls a tool', async () => {
    expect(manager.servers().find((server) => server.name === 'streamable')?.state).toEqual({ status: 'connected' });
    const greet = find('mcp__streamable__greet');
    expect(greet.isConcurrencySafe({ name: 'x' })).toBe(true);
    expect(greet.mapResult(await greet.call({ name: 'Ada' }, context), 'toolu_1')).toEqual({ content: 'hello Ada' });
    expect(http.seenAuthorization).toContain('Bearer streamable-token');
  });

  it('connects over HTTP+SSE and calls a tool', async () => {
    expect(manager.servers().find((server) => server.name === 'legacy')?.state).toEqual({ status: 'connected' });
    const greet = find('mcp__legacy__greet');
    expect(greet.mapResult(await greet.call({ name: 'Grace' }, context), 'toolu_1')).toEqual({
      content: 'hello Grace',
    });
    expect(http.seenAuthorization).toContain('Bearer sse-token');
  });

  it('marks a server that refuses the connection as failed, with the HTTP status', () => {
    const state = manager.servers().find((server) => server.name === 'refused')?.state;
    expect(state?.status).toBe('failed');
    expect(state?.status === 'failed' && state.reason).toMatch(/403/);
  });

  it('refreshes tools on list_changed over streamable HTTP', async () => {
    const changed = new Promise<void>((resolve) => {
      const unsubscribe = manager.subscribe((event) => {
        if (event.type === 'tools-change' && event.tools.some((tool) => tool.name === 'mcp__streamable__late')) {
          unsubscribe();
          resolve();
        }
      });
    });
    await find('mcp__streamable__add_tool').call({}, context);
    await changed;
    const late = find('mcp__streamable__late');
    expect(late.mapResult(await late.call({}, context), 'toolu_1')).toEqual({ content: 'late ran' });
  });
});

describe('a remote MCP server that goes away', () => {
  it('answers the failed call, reconnects with backoff, and works again once the server is back', async () => {
    let http = await startHttpMcpServer();
    const port = Number(new URL(http.url).port);
    const stop = async (): Promise<void> => {
      http.server.closeAllConnections();
      await new Promise((resolve) => http.server.close(resolve));
    };
    const manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      connectTimeoutMs: 5_000,
      reconnect: { initialDelayMs: 50, maxAttempts: 20, maxDelayMs: 200 },
      servers: [entry('remote', { type: 'http', url: `${http.url}/mcp`, headers: {} })],
    });
    try {
      await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
      const greet = manager.tools().find((tool) => tool.name === 'mcp__remote__greet');
      if (greet === undefined) throw new Error('greet missing');
      await stop();
      const failed = greet.mapResult(await greet.call({ name: 'x' }, context), 'toolu_1');
      expect(failed.isError).toBe(true);
      expect(failed.content).toMatch(
        /^Could not reach MCP server "remote" for the call of greet: .*It is being reconnected; try again later\.$/,
      );
      const stateIs = (status: string): Promise<void> =>
        new Promise<void>((resolve) => {
          if (manager.servers()[0]?.state.status === status) return resolve();
          const unsubscribe = manager.subscribe(() => {
            if (manager.servers()[0]?.state.status !== status) return;
            unsubscribe();
            resolve();
          });
        });
      await stateIs('pending');
      expect(manager.servers()[0]?.state).toMatchObject({
        status: 'pending',
        attempt: expect.any(Number),
        lastError: expect.stringMatching(/fetch failed|ECONNREFUSED/),
      });
      http = await startHttpMcpServer(port);
      await stateIs('connected');
      expect(greet.mapResult(await greet.call({ name: 'again' }, context), 'toolu_1')).toEqual({
        content: 'hello again',
      });
    } finally {
      await manager.close();
      await stop();
    }
  });
});
