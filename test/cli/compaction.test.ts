import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

const demoServer = fileURLToPath(new URL('../../demo/mcp-server.mjs', import.meta.url));
const LOG_TOOL = 'mcp__project-tools__read_build_log';

describe('compaction end to end (toolplane -p against a mock Anthropic server)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-compact-'));
    project = join(home, 'project');
    await mkdir(join(project, 'logs'), { recursive: true });
    await writeFile(join(project, 'logs', 'build.log'), 'step ok\n'.repeat(30_000));
    await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__project-tools'] } }));
    await writeFile(
      join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { 'project-tools': { command: process.execPath, args: [demoServer] } } }),
    );
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  it('keeps the discovered tools and the paths of saved results across a compaction', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'ts', name: 'ToolSearch', input: { query: `select:${LOG_TOOL}` } }] },
        {
          expect: { tools: [LOG_TOOL] },
          content: [{ type: 'tool_use', id: 'log', name: LOG_TOOL, input: { path: project } }],
        },
        { content: [{ type: 'tool_use', id: 'g1', name: 'Glob', input: { pattern: 'logs/*', path: project } }] },
        { content: [{ type: 'tool_use', id: 'g2', name: 'Glob', input: { pattern: '*', path: project } }] },
        { content: [{ type: 'tool_use', id: 'g3', name: 'Glob', input: { pattern: '**', path: project } }] },
        // The context is now over the threshold: the next request is the summary, and the log's
        // spilled result is among the turns it replaces.
        {
          usage: { input_tokens: 190_000 },
          expect: { includes: ['full output is saved in'] },
          content: [{ type: 'tool_use', id: 'g4', name: 'Glob', input: { pattern: 'logs/*', path: project } }],
        },
        {
          expect: { includes: ['Summarize the conversation so far'] },
          content: [{ type: 'text', text: 'SUMMARY: the build log was read through the MCP tool.' }],
        },
        // After the compaction: the old turns are gone, the loaded tool and the saved path are not.
        {
          expect: { tools: [LOG_TOOL], includes: ['SUMMARY: the build log', 'Large tool outputs from that part'] },
          content: [{ type: 'tool_use', id: 'log2', name: LOG_TOOL, input: { path: project } }],
        },
        { expect: { tool_results: ['log2'], errors: [] }, content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(
      [
        '-p',
        'read the build log',
        '--mcp-config',
        join(home, 'mcp.json'),
        '--settings',
        join(home, 'settings.json'),
        '--output-format',
        'json',
      ],
      { cwd: project, env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }) },
    );
    expect(server.mismatches.map((m) => m.slice(0, 600))).toEqual([]);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    const afterCompaction = JSON.stringify(server.requests[7]!.body);
    expect(afterCompaction).not.toContain('"id":"ts"');
    expect(afterCompaction).not.toContain('"id":"log"');
    // The saved file the summary names is the one the spilled result named, and it is whole.
    const saved = /saved in: (\/[^\s",\\]+)/.exec(afterCompaction)?.[1];
    expect(saved).toBeDefined();
    expect(JSON.stringify(server.requests[2]!.body)).toContain(saved!);
    expect((await readFile(saved!, 'utf8')).split('step ok').length - 1).toBe(30_000);
  });
});
