import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { startMockOpenAIServer } from '../../src/testing/mock-openai-server.js';
import { isolatedEnv, jsonLines, runCli } from './run-cli.js';

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

/** The tool results the run sent back, by id, as text (from stream-json's `user` events). */
function resultsOf(stdout: string): Map<string, { readonly text: string; readonly isError: boolean }> {
  const results = new Map<string, { readonly text: string; readonly isError: boolean }>();
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as { type: string; message?: { content?: unknown } };
    if (event.type !== 'user' || !Array.isArray(event.message?.content)) continue;
    for (const block of event.message.content as Block[]) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      const text =
        typeof block.content === 'string'
          ? block.content
          : (block.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');
      results.set(block.tool_use_id, { text, isError: block.is_error === true });
    }
  }
  return results;
}

describe('toolplane -p at the provider edge and with failing calls (mock model servers)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-edge-home-'));
    project = join(home, 'project');
    await mkdir(project);
    await writeFile(join(project, 'notes.txt'), 'first line\nthe needle is here\nlast line\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const anthropicEnv = () => isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server!.baseURL });
  const json = ['--output-format', 'stream-json', '--allowedTools', 'Bash'];

  it('answers a timed-out Bash, a Read with a bad input and a Grep in one message, each with its own result', async () => {
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'slow', name: 'Bash', input: { command: 'echo started; sleep 30', timeout: 1000 } },
            { type: 'tool_use', id: 'bad', name: 'Read', input: { file_path: 42 } },
            {
              type: 'tool_use',
              id: 'grep',
              name: 'Grep',
              input: { pattern: 'needle', path: project, output_mode: 'content' },
            },
          ],
        },
        {
          expect: { tool_results: ['slow', 'bad', 'grep'], errors: ['bad'] },
          content: [
            { type: 'tool_use', id: 'fails', name: 'Bash', input: { command: 'echo broken >&2; exit 3' } },
            { type: 'tool_use', id: 'search', name: 'Grep', input: { pattern: 'needle', path: project } },
            { type: 'tool_use', id: 'after', name: 'Bash', input: { command: `touch "${join(project, 'never')}"` } },
          ],
        },
        {
          expect: { tool_results: ['fails', 'search', 'after'], errors: ['fails', 'after'] },
          content: [{ type: 'text', text: 'done' }],
        },
      ],
    });
    const run = await runCli(['-p', 'three calls', ...json], { cwd: project, env: anthropicEnv() });
    expect(server.mismatches).toEqual([]);
    expect(run.code).toBe(0);
    const results = resultsOf(run.stdout);
    const slow = results.get('slow')!;
    expect(slow.isError).toBe(false);
    expect(slow.text).toMatch(/^started\nCommand timed out after 1000 ms \(its timeout\)/);
    expect(results.get('bad')!.text).toContain('file_path');
    expect(results.get('grep')!.text).toContain('the needle is here');
    // A failing Bash cancels the later Bash that could depend on it, not the search beside them.
    expect(results.get('fails')!.text).toContain('Exit code 3');
    expect(results.get('search')!.isError).toBe(false);
    expect(results.get('search')!.text).toContain('notes.txt');
    expect(results.get('after')!.text).toContain('an earlier call in this message (fails) failed');
    await expect(stat(join(project, 'never'))).rejects.toThrow();
  });

  it('answers a 575 KB Bash output with about 2 KB and the path of the file holding all of it', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'big', name: 'Bash', input: { command: 'seq 1 100000' } }] },
        {
          expect: { tool_results: ['big'], errors: [], includes: ['Output too large to show'] },
          content: [{ type: 'text', text: 'seen' }],
        },
      ],
    });
    const run = await runCli(['-p', 'print a lot', ...json], { cwd: project, env: anthropicEnv() });
    expect(server.mismatches).toEqual([]);
    expect(run.code).toBe(0);
    const big = resultsOf(run.stdout).get('big')!;
    expect(big.text.length).toBeLessThan(2_600);
    expect(big.text).toMatch(/^\[Output too large to show: 588895 bytes\./);
    expect(big.text).toContain('\n1\n2\n3\n');
    const path = /The full output is saved in (\S+);/.exec(big.text)?.[1];
    expect(path).toBeDefined();
    const saved = await readFile(path!, 'utf8');
    expect(saved.length).toBe(588_895);
    expect(saved.endsWith('99999\n100000\n')).toBe(true);
  });

  it('abandons a stalled stream and retries the request, saying so on stderr', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { kind: 'turn', turn: { content: [{ type: 'text', text: 'this stalls' }] }, stallAfterEvents: 2 },
        { content: [{ type: 'text', text: 'Answered on the second attempt.' }] },
      ],
    });
    const run = await runCli(['-p', 'hello', '--stream-idle-timeout', '300'], { cwd: project, env: anthropicEnv() });
    expect(run.stdout).toBe('Answered on the second attempt.\n');
    expect(run.stderr).toMatch(
      /toolplane: The model request failed \(no event from the API for 300 ms; the stream was abandoned\); retrying in \d+\.\d s \(retry 1 of 10\)\./,
    );
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('shows each overload retry as a system api_retry event in stream-json, within --max-retries', async () => {
    server = await startMockOpenAIServer({
      replies: [
        { kind: 'error', status: 529, errorType: 'overloaded_error', message: 'Overloaded', retryAfterSeconds: 0.01 },
        { content: [{ type: 'text', text: 'through' }] },
      ],
    });
    const env = isolatedEnv(home, { OPENAI_BASE_URL: server.baseURL });
    const run = await runCli(['-p', 'hi', '--output-format', 'stream-json', '--max-retries', '2'], {
      cwd: project,
      env,
    });
    expect(run.code).toBe(0);
    const retries = jsonLines(run.stdout).filter((event) => event['subtype'] === 'api_retry');
    expect(retries).toEqual([
      expect.objectContaining({
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 2,
        retry_delay_ms: 10,
        error_status: 529,
      }),
    ]);
    expect(retries[0]!['error']).toBe('overloaded');
  });

  it('gives up after the budget the settings set, naming the attempts', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { kind: 'error', status: 529, retryAfterSeconds: 0.01 },
        { kind: 'error', status: 529, retryAfterSeconds: 0.01 },
        { content: [{ type: 'text', text: 'never requested' }] },
      ],
    });
    const run = await runCli(['-p', 'hi', '--settings', '{"maxRetries": 1}'], { cwd: project, env: anthropicEnv() });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('(retry 1 of 1)');
    expect(run.stderr).toContain('HTTP 529');
    expect(run.stderr).toContain('(after 2 attempts)');
    expect(server.requests).toHaveLength(2);
  });
});
