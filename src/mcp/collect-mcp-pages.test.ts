import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MCP_LIST_PAGES, collectMcpPages } from './collect-mcp-pages.js';
import { createMcpManager, type McpManager } from './mcp-manager.js';

const SERVER = fileURLToPath(new URL('./__fixtures__/endless-pages-server.mjs', import.meta.url));

describe('collectMcpPages', () => {
  it('follows cursors to the last page', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [4] },
    };
    expect(await collectMcpPages('tools/list', async (cursor) => pages[cursor ?? 'start'] ?? { items: [] })).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('ends a list whose cursor repeats, or that pages on without end, with an error', async () => {
    await expect(collectMcpPages('tools/list', async () => ({ items: [1], nextCursor: 'same' }))).rejects.toThrow(
      /repeated the page cursor "same"/,
    );
    let page = 0;
    let calls = 0;
    const endless = collectMcpPages('resources/list', async () => {
      calls += 1;
      return { items: [page], nextCursor: `page-${++page}` };
    });
    await expect(endless).rejects.toThrow(`went on past ${MAX_MCP_LIST_PAGES} pages`);
    expect(calls).toBe(MAX_MCP_LIST_PAGES);
  });
});

describe('a real server whose lists never end', () => {
  const managers: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
  });
  const start = (env: Record<string, string>) => {
    const manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      connectTimeoutMs: 10_000,
      servers: [
        {
          name: 'endless',
          scope: 'user',
          file: 'user.json',
          fromWorkspace: false,
          config: { type: 'stdio', command: process.execPath, args: [SERVER], env, defer: true, alwaysLoad: [] },
        },
      ],
    });
    managers.push(manager);
    return manager;
  };

  it('fails the connection with the reason instead of paging tools/list forever', async () => {
    const manager = start({ TEST_SERVER_ENDLESS: 'tools', TEST_SERVER_CURSORS: 'repeat' });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    const state = manager.servers()[0]?.state;
    expect(state?.status === 'failed' && state.reason).toMatch(/tools\/list repeated the page cursor "again"/);
  });

  it('reports the server as unavailable when its resources/list never ends', async () => {
    const manager = start({ TEST_SERVER_ENDLESS: 'resources' });
    await manager.whenSettled({ signal: AbortSignal.timeout(15_000) });
    expect(manager.servers()[0]?.state).toEqual({ status: 'connected' });
    const listed = await manager.listResources({ signal: AbortSignal.timeout(20_000) });
    expect(listed.ok && listed.listing.unavailable).toEqual([
      {
        server: 'endless',
        reason: expect.stringMatching(/resources\/list went on past 1000 pages/) as unknown as string,
      },
    ]);
  }, 30_000);
});
