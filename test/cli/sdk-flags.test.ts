import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockReply } from '../../src/testing/mock-server-types.js';
import { isolatedEnv, jsonLines, runCli } from './run-cli.js';

const demoServer = fileURLToPath(new URL('../../demo/mcp-server.mjs', import.meta.url));
/** The files under `folder`, at any depth, by name: their text. */
async function readTree(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) files[entry.name] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  return files;
}

const done = { content: [{ type: 'text' as const, text: 'done' }] };

/** The flags the Agent SDK builds from `tools`, `strictMcpConfig` and `settingSources`, run for real. */
describe('--tools, --strict-mcp-config and --setting-sources', () => {
  let home: string;
  let project: string;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-sdk-flags-'));
    project = join(home, 'project');
    await mkdir(project);
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const run = async (replies: MockReply[], args: readonly string[]) => {
    const server = await startMockAnthropicServer({ replies });
    try {
      const result = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...args], {
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
      });
      const messages = jsonLines(result.stdout);
      const tools = ((server.requests[0]?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map(
        (tool) => tool.name,
      );
      return { ...result, messages, tools, init: messages[0] ?? {}, end: messages.at(-1) ?? {} };
    } finally {
      await server.close();
    }
  };

  it('--tools keeps only the named built-ins, in the request and in init; "" keeps none', async () => {
    const some = await run([done], ['--tools', 'Read,Glob']);
    expect(some.tools).toEqual(['Glob', 'Read']);
    expect(some.init['tools']).toEqual(['Glob', 'Read']);
    const none = await run([done], ['--tools', '']);
    expect(none.tools).toEqual([]);
    const all = await run([done], []);
    expect(all.tools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write']));
  });

  it('--tools refuses a call of a tool it left out, and names a tool no built-in has', async () => {
    const marker = join(project, 'made');
    const result = await run(
      [{ content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: `touch ${marker}` } }] }, done],
      ['--tools', 'Read Nonesuch', '--permission-mode', 'bypassPermissions'],
    );
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).toContain('--tools names no built-in tool Nonesuch');
  });

  it('--strict-mcp-config starts only the --mcp-config servers, not the project .mcp.json', async () => {
    const server = (name: string) => ({ [name]: { command: process.execPath, args: [demoServer] } });
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: server('project') }));
    const flag = JSON.stringify({ mcpServers: server('flag') });
    const names = (init: Record<string, unknown>) =>
      (init['mcp_servers'] as { name: string }[]).map((entry) => entry.name).sort();
    const strict = await run([done], ['--trust-project', '--mcp-config', flag, '--strict-mcp-config']);
    expect(names(strict.init)).toEqual(['flag']);
    const loose = await run([done], ['--trust-project', '--mcp-config', flag]);
    expect(names(loose.init)).toEqual(['flag', 'project']);
  }, 30_000);

  it('--setting-sources leaves out the user file: its allow rule lapses, its deny rule holds', async () => {
    const allowed = join(project, 'allowed');
    const secret = join(project, 'secret.txt');
    await writeFile(secret, 'hunter2\n');
    await mkdir(join(home, '.toolplane'), { recursive: true });
    await writeFile(
      join(home, '.toolplane', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(touch:*)'], deny: [`Read(/${secret})`] } }),
    );
    const calls: MockReply = {
      content: [
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: `touch ${allowed}` } },
        { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: secret } },
      ],
    };
    const narrowed = await run([calls, done], ['--setting-sources', 'project,local']);
    expect(existsSync(allowed)).toBe(false);
    const denials = (narrowed.end['permission_denials'] as { tool_use_id: string }[]).map((entry) => entry.tool_use_id);
    expect(denials.sort()).toEqual(['r1', 't1']);
    expect(narrowed.stderr).toMatch(/--setting-sources leaves out the user settings/);

    const full = await run([calls, done], []);
    expect(existsSync(allowed)).toBe(true);
    expect((full.end['permission_denials'] as { tool_use_id: string }[]).map((entry) => entry.tool_use_id)).toEqual([
      'r1',
    ]);
  });
  it('--session-id names the new session, once; --fork-session continues a history under a new id', async () => {
    const id = '0b9d6b1e-8f3a-4c2d-9e5f-1a2b3c4d5e6f';
    const first = await run([{ content: [{ type: 'text', text: 'noted: heron' }] }], ['--session-id', id]);
    expect(first.init['session_id']).toBe(id);
    expect(first.end['session_id']).toBe(id);
    const again = await run([done], ['--session-id', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`A session with the id ${id} exists already`);

    const transcript = join(home, '.toolplane', 'projects');
    const before = await readTree(transcript);
    const forked = await run(
      [{ content: [{ type: 'text', text: 'it was heron' }] }],
      ['--resume', id, '--fork-session'],
    );
    const forkId = String(forked.end['session_id']);
    expect(forkId).not.toBe(id);
    expect(forked.end).toMatchObject({ subtype: 'success', result: 'it was heron' });
    // The earlier session is as it was; the fork has the history and can be resumed in turn.
    const after = await readTree(transcript);
    expect(after[`${id}.jsonl`]).toBe(before[`${id}.jsonl`]);
    expect(after[`${forkId}.jsonl`]).toContain('noted: heron');
    const resumed = await run([done], ['--resume', forkId]);
    expect(resumed.end).toMatchObject({ subtype: 'success', session_id: forkId });
  });
  it('--no-session-persistence keeps nothing of the session once it ends', async () => {
    const big = join(project, 'big.txt');
    await writeFile(big, 'line of a long file\n'.repeat(20_000));
    const ephemeral = await run(
      [{ content: [{ type: 'tool_use', id: 'r1', name: 'Bash', input: { command: `cat ${big}` } }] }, done],
      ['--no-session-persistence', '--permission-mode', 'bypassPermissions'],
    );
    expect(ephemeral.end).toMatchObject({ subtype: 'success' });
    const left = existsSync(join(home, '.toolplane')) ? await readTree(join(home, '.toolplane')) : {};
    expect(Object.keys(left).filter((name) => name.endsWith('.jsonl') || name.endsWith('.txt'))).toEqual([]);
    const scratch = join(home, '.toolplane', 'ephemeral');
    expect(existsSync(scratch) ? await readdir(scratch) : []).toEqual([]);
    const resumed = await run([done], ['--resume', String(ephemeral.end['session_id'])]);
    expect(resumed.code).toBe(1);
    // The look-alike: without the flag the session is kept and can be resumed.
    const kept = await run([done], []);
    expect(Object.keys(await readTree(join(home, '.toolplane')))).toContain(`${String(kept.end['session_id'])}.jsonl`);
  });
  it('--max-budget-usd refuses a model it cannot price, before any request; a price in the settings makes it count', async () => {
    const unpriced = await run([done], ['--model', 'my-local-coder', '--max-budget-usd', '1']);
    expect(unpriced.code).toBe(1);
    expect(unpriced.stderr).toContain('--max-budget-usd cannot cap my-local-coder: it has no price');
    expect(unpriced.tools).toEqual([]);
    const priced = JSON.stringify({ modelPrices: { 'my-local-coder': { input: 0.1, output: 0.2 } } });
    const counted = await run([done], ['--model', 'my-local-coder', '--max-budget-usd', '1', '--settings', priced]);
    expect(counted.end).toMatchObject({ subtype: 'success' });
  });
});
