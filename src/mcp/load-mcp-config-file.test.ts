import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfigFile } from './load-mcp-config-file.js';
import { summarizeMcpServers } from './summarize-mcp-servers.js';

describe('loadMcpConfigFile', () => {
  let dir: string;
  const signal = new AbortController().signal;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolplane-mcp-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and parses a file, expanding variables', async () => {
    const file = join(dir, '.mcp.json');
    await writeFile(file, JSON.stringify({ mcpServers: { s: { command: 'node', args: ['${DIR}/server.js'] } } }));
    const parsed = await loadMcpConfigFile({ file, env: { DIR: '/srv' }, optional: true, signal });
    expect(parsed.issues).toEqual([]);
    expect(parsed.servers.get('s')).toMatchObject({ type: 'stdio', args: ['/srv/server.js'] });
  });

  it('gives nothing for a missing optional file, and an issue for a missing named one', async () => {
    const file = join(dir, 'absent.json');
    expect(await loadMcpConfigFile({ file, env: {}, optional: true, signal })).toEqual({
      servers: new Map(),
      issues: [],
    });
    expect((await loadMcpConfigFile({ file, env: {}, optional: false, signal })).issues).toEqual([
      { file, message: 'file not found' },
    ]);
  });

  it('reports a file that cannot be read', async () => {
    await writeFile(join(dir, 'inside'), 'x');
    const parsed = await loadMcpConfigFile({ file: dir, env: {}, optional: true, signal });
    expect(parsed.issues[0]?.message).toMatch(/^could not be read: .*EISDIR/);
  });

  it("takes an empty folder (the sandbox's stand-in while a command runs) for a missing optional file", async () => {
    expect(await loadMcpConfigFile({ file: dir, env: {}, optional: true, signal })).toEqual({
      servers: new Map(),
      issues: [],
    });
  });

  it('rejects when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      loadMcpConfigFile({ file: join(dir, 'x.json'), env: {}, optional: true, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('summarizeMcpServers', () => {
  it('lists pending and failed servers, leaving connected and disabled ones out', () => {
    const base = { scope: 'user', file: 'f', transport: 'stdio', toolNames: [] } as const;
    expect(
      summarizeMcpServers([
        { ...base, name: 'a', state: { status: 'pending' } },
        { ...base, name: 'b', state: { status: 'pending', attempt: 2, lastError: 'x' } },
        { ...base, name: 'c', state: { status: 'failed', reason: 'boom' } },
        { ...base, name: 'd', state: { status: 'connected' } },
        { ...base, name: 'e', state: { status: 'disabled', reason: 'not started: workspace not trusted' } },
      ]),
    ).toEqual({ pendingServers: ['a', 'b'], failedServers: [{ name: 'c', reason: 'boom' }] });
  });
});
