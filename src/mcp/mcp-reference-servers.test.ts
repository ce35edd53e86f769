import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createCallContext } from '../testing/call-context.js';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyTool, MappedResult, ToolCallContext, ToolProgress } from '../contract/tool.js';
import { createMcpManager } from './mcp-manager.js';
import type { McpManager } from './mcp-manager.js';
import type { McpServerEntry } from './merge-mcp-configs.js';

const require = createRequire(import.meta.url);

/** The `bin` script of an installed server package, run with this `node`. */
function serverScript(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> };
  const bin = Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${pkg} has no bin`);
  return join(dirname(manifestPath), bin);
}

function entry(name: string, args: string[]): McpServerEntry {
  return {
    name,
    scope: 'user',
    file: 'user.json',
    fromWorkspace: false,
    config: { type: 'stdio', command: process.execPath, args, env: {}, defer: true, alwaysLoad: [] },
  };
}

function context(options: { signal?: AbortSignal; progress?: (progress: ToolProgress) => void } = {}): ToolCallContext {
  return createCallContext({
    toolUseId: 'toolu_1',
    cwd: process.cwd(),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progress ? { onProgress: options.progress } : {}),
  });
}

describe('the reference MCP servers over stdio', () => {
  let manager: McpManager;
  let dir: string;
  const find = (name: string): AnyTool => {
    const found = manager.tools().find((tool) => tool.name === name);
    if (found === undefined) throw new Error(`${name} not found`);
    return found;
  };
  const run = async (name: string, input: unknown): Promise<MappedResult> =>
    find(name).mapResult(await find(name).call(input, context()), 'toolu_1');

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'toolplane-mcp-fs-')));
    await writeFile(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    manager = createMcpManager({
      cwd: process.cwd(),
      trusted: true,
      baseEnv: {
        PATH: process.env['PATH'],
        HOME: dir,
        ANTHROPIC_API_KEY: 'sk-ant-secret',
        OPENAI_API_KEY: 'sk-secret',
      },
      servers: [
        entry('everything', [serverScript('@modelcontextprotocol/server-everything'), 'stdio']),
        entry('filesystem', [serverScript('@modelcontextprotocol/server-filesystem'), dir]),
      ],
    });
    await manager.whenSettled({ signal: AbortSignal.timeout(20_000) });
  });
  afterAll(async () => {
    await manager.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('connects both and lists their tools under sanitized names', () => {
    expect(manager.servers().map((server) => [server.name, server.state.status])).toEqual([
      ['everything', 'connected'],
      ['filesystem', 'connected'],
    ]);
    const names = manager.tools().map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-tiny-image',
        'mcp__filesystem__read_text_file',
        'mcp__filesystem__write_file',
      ]),
    );
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
  });

  it('maps the filesystem server annotations', () => {
    const read = find('mcp__filesystem__read_text_file');
    const write = find('mcp__filesystem__write_file');
    expect([read.isReadOnly({}), read.isConcurrencySafe({}), read.isDestructive({})]).toEqual([true, true, false]);
    expect([write.isReadOnly({}), write.isConcurrencySafe({}), write.isDestructive({})]).toEqual([false, false, true]);
  });

  it('reads and writes files through the filesystem server, and refuses paths outside its folder', async () => {
    expect(await run('mcp__filesystem__read_text_file', { path: join(dir, 'notes.txt') })).toEqual({
      content: 'first line\nsecond line\n',
    });
    const written = await run('mcp__filesystem__write_file', { path: join(dir, 'out.txt'), content: 'written' });
    expect(written.isError).toBeUndefined();
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('written');
    const outside = await run('mcp__filesystem__read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(outside.content).toMatch(/denied|outside/i);
  });

  it('calls the everything server: text, image, structured, resource reference and links', async () => {
    expect(await run('mcp__everything__echo', { message: 'hi' })).toEqual({ content: 'Echo: hi' });
    const image = await run('mcp__everything__get-tiny-image', {});
    expect(Array.isArray(image.content) && image.content.map((block) => block.type)).toContain('image');
    const structured = await run('mcp__everything__get-structured-content', { location: 'Chicago' });
    expect(JSON.parse(String(structured.content))).toHaveProperty('temperature');
    const reference = await run('mcp__everything__get-resource-reference', {});
    expect(JSON.stringify(reference.content)).toMatch(
      /\[Resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]/,
    );
    const links = await run('mcp__everything__get-resource-links', { count: 2 });
    expect(JSON.stringify(links.content)).toMatch(/Resource link: .* demo:\/\/resource\//);
  });

  it('keeps provider credentials out of the server environment', async () => {
    const reported = JSON.parse(String((await run('mcp__everything__get-env', {})).content)) as Record<string, string>;
    expect(reported['HOME']).toBe(dir);
    expect(reported).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(reported).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('reports progress of a long operation and stops waiting on abort', async () => {
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    const call = find('mcp__everything__trigger-long-running-operation').call(
      { duration: 1, steps: 10 },
      context({
        signal: controller.signal,
        progress: (report) => {
          progress.push(report);
          controller.abort(new Error('stop'));
        },
      }),
    );
    await expect(call).rejects.toThrow('stop');
    expect(progress[0]).toMatchObject({ kind: 'mcp-progress', data: { progress: 1, total: 10 } });
    // The connection is still usable after the cancellation.
    expect(await run('mcp__everything__echo', { message: 'still here' })).toEqual({ content: 'Echo: still here' });
  });
});
