import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer, MockReply } from '../../src/testing/mock-model-server.js';
import { toolResultText } from './request-body.js';
import { isolatedEnv, runCli } from './run-cli.js';

describe('unchanged re-reads (toolplane -p against a mock Anthropic server)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-reread-'));
    project = join(home, 'project');
    await mkdir(project);
    await writeFile(join(project, 'big.txt'), 'a line of the file that the model reads\n'.repeat(700));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  it('answers a re-read with a pointer while the earlier result is in the context, and reads for real after a change or a compaction', async () => {
    const file = join(project, 'big.txt');
    const read = (id: string, extra: Record<string, unknown> = {}): MockReply => ({
      content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: file, ...extra } }],
    });
    const glob = (id: string): MockReply => ({
      content: [{ type: 'tool_use', id, name: 'Glob', input: { pattern: '*.txt', path: project } }],
    });
    server = await startMockAnthropicServer({
      replies: [
        read('r1'),
        read('r2'),
        read('r3', { offset: 10, limit: 5 }),
        { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: `echo changed >> ${file}` } }] },
        read('r4'),
        glob('g1'),
        glob('g2'),
        { usage: { input_tokens: 190_000 }, ...glob('g3') },
        { content: [{ type: 'text', text: 'SUMMARY: the file was read.' }] },
        read('r5'),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'read it', '--permission-mode', 'bypassPermissions', '--output-format', 'json'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    const last = server.requests[server.requests.length - 1]!.body;
    const before = server.requests[7]!.body;
    expect(toolResultText(before, 'r1')).toContain('a line of the file');
    expect(toolResultText(before, 'r2')).toMatch(
      /^<note>.*unchanged since your earlier Read of the same lines \(tool call r1\)/,
    );
    expect(toolResultText(before, 'r2').length).toBeLessThan(300);
    expect(toolResultText(before, 'r3')).toContain('10\ta line of the file');
    expect(toolResultText(before, 'r4')).toContain('changed');
    // After the compaction the earlier results are gone: the read is a real one.
    expect(toolResultText(last, 'r5')).toContain('701\tchanged');
  });
});
