import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { startMockOpenAIServer } from '../../src/testing/mock-openai-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { z } from 'zod';
import { isolatedEnv, runCli } from './run-cli.js';

// --json-schema: a schema with one integer, and a StructuredOutput call that does not match it.
const countSchema = JSON.stringify({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });
const wrongCall = (id: string) => ({
  content: [{ type: 'tool_use' as const, id, name: 'StructuredOutput', input: { count: 'many' } }],
});

type Block = { type: string; id?: string; tool_use_id?: string; input?: unknown; is_error?: boolean };
type Body = { messages: { role: string; content: string | Block[] }[] };

/** The Messages API's rule: every tool_use id of a request is unique, and each is answered once. */
function expectUniquePairs(body: Body): void {
  const uses = body.messages.flatMap((message) =>
    typeof message.content === 'string' ? [] : message.content.filter((block) => block.type === 'tool_use'),
  );
  const results = body.messages.flatMap((message) =>
    typeof message.content === 'string' ? [] : message.content.filter((block) => block.type === 'tool_result'),
  );
  const ids = uses.map((block) => block.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(results.map((block) => block.tool_use_id).sort()).toEqual([...ids].sort());
}

const demoServer = fileURLToPath(new URL('../../demo/mcp-server.mjs', import.meta.url));

describe('toolplane -p against mock model servers', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-cli-home-'));
    project = join(home, 'project');
    await mkdir(project);
    await writeFile(join(project, 'a.txt'), 'alpha file\n');
    await writeFile(join(project, 'b.txt'), 'beta file\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const anthropicEnv = (extra: Record<string, string> = {}) =>
    isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server!.baseURL, ...extra });

  it('prints the final text (text format) and exits 0', async () => {
    server = await startMockAnthropicServer({
      replies: [{ content: [{ type: 'text', text: 'Hello from the model.' }] }],
    });
    const run = await runCli(['-p', 'say hello'], { cwd: project, env: anthropicEnv() });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Hello from the model.\n');
    expect(run.code).toBe(0);
  });

  it('takes the prompt on stdin', async () => {
    server = await startMockAnthropicServer({
      replies: [{ expect: { includes: ['from stdin'] }, content: [{ type: 'text', text: 'ok' }] }],
    });
    const run = await runCli(['-p'], { cwd: project, env: anthropicEnv(), input: 'a prompt from stdin\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ok\n');
  });

  it('runs parallel calls, answers an unparseable input, and lists a denied call (json format)', async () => {
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: join(project, 'a.txt') } },
            { type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: join(project, 'b.txt') } },
          ],
        },
        {
          expect: { tool_results: ['r1', 'r2'], errors: [], includes: ['alpha file', 'beta file'] },
          content: [
            { type: 'tool_use', id: 'bad', name: 'Read', input_json: '{"file_path": ' },
            { type: 'tool_use', id: 'rm', name: 'Bash', input: { command: 'rm -rf b.txt' } },
          ],
        },
        {
          expect: { tool_results: ['bad', 'rm'], errors: ['bad', 'rm'] },
          content: [{ type: 'text', text: 'Could not delete.' }],
        },
      ],
    });
    const run = await runCli(['-p', 'read and delete', '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Could not delete.',
      num_turns: 3,
      permission_denials: [{ tool_name: 'Bash', tool_use_id: 'rm', tool_input: { command: 'rm -rf b.txt' } }],
    });
    expect(typeof result.session_id).toBe('string');
    expect(run.code).toBe(0);
    expect(await readFile(join(project, 'b.txt'), 'utf8')).toBe('beta file\n');
  });

  it('streams events one per line in the reference shapes (stream-json)', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'g', name: 'Glob', input: { pattern: '*.txt', path: project } }] },
        { content: [{ type: 'text', text: 'two files' }] },
      ],
    });
    const run = await runCli(['-p', 'list', '--output-format', 'stream-json'], { cwd: project, env: anthropicEnv() });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; subtype?: string });
    expect(lines.map((line) => line.type)).toEqual(['system', 'assistant', 'user', 'assistant', 'result']);
    expect(lines[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      tools: expect.arrayContaining(['Read', 'Glob', 'Bash']),
    });
    expect(lines[4]).toMatchObject({ type: 'result', subtype: 'success', result: 'two files' });
  });

  it('resumes a session by id with its history', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'text', text: 'Noted: the code word is heron.' }] },
        {
          expect: { includes: ['the code word is heron', 'what was the code word'] },
          content: [{ type: 'text', text: 'heron' }],
        },
      ],
    });
    const first = await runCli(['-p', 'remember: the code word is heron', '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const second = await runCli(['-p', 'what was the code word?', '--resume', sessionId, '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(JSON.parse(second.stdout)).toMatchObject({ result: 'heron', session_id: sessionId });
    const continued = await runCli(['sessions', 'list', '--json'], { cwd: project, env: anthropicEnv() });
    expect(JSON.parse(continued.stdout)).toEqual([expect.objectContaining({ id: sessionId })]);
  });

  it('returns validated structured output, after one retry (--json-schema)', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { count: { type: 'integer' } },
      required: ['count'],
      additionalProperties: false,
    });
    server = await startMockAnthropicServer({
      replies: [
        {
          expect: { tools: ['StructuredOutput'] },
          content: [{ type: 'tool_use', id: 's1', name: 'StructuredOutput', input: { count: 'two' } }],
        },
        {
          expect: { errors: ['s1'] },
          content: [{ type: 'tool_use', id: 's2', name: 'StructuredOutput', input: { count: 2 } }],
        },
      ],
    });
    const run = await runCli(['-p', 'count the files', '--json-schema', schema, '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', structured_output: { count: 2 }, num_turns: 2 });
    expect(run.code).toBe(0);
  });

  it('connects an MCP server from --mcp-config, loads its tool through ToolSearch, and spills a huge result', async () => {
    await mkdir(join(project, 'logs'));
    await writeFile(join(project, 'logs', 'build.log'), 'step ok\n'.repeat(30_000));
    const config = join(home, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { 'project-tools': { command: process.execPath, args: [demoServer] } } }),
    );
    await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__project-tools'] } }));
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            {
              type: 'tool_use',
              id: 'ts',
              name: 'ToolSearch',
              input: { query: 'select:mcp__project-tools__read_build_log' },
            },
          ],
        },
        {
          expect: { tools: ['mcp__project-tools__read_build_log'] },
          content: [
            { type: 'tool_use', id: 'log', name: 'mcp__project-tools__read_build_log', input: { path: project } },
          ],
        },
        { expect: { errors: [], includes: ['full output is saved in'] }, content: [{ type: 'text', text: 'done' }] },
      ],
    });
    // The server may still be connecting at the first request: ToolSearch then says so; give it a moment.
    const run = await runCli(
      [
        '-p',
        'read the log',
        '--mcp-config',
        config,
        '--settings',
        join(home, 'settings.json'),
        '--output-format',
        'json',
      ],
      {
        cwd: project,
        env: anthropicEnv(),
      },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
  });

  it('runs a subagent and compacts a long context through the same server', async () => {
    server = await startMockAnthropicServer({
      replies: [
        {
          usage: { input_tokens: 190_000 },
          content: [
            {
              type: 'tool_use',
              id: 'ag',
              name: 'Agent',
              input: { description: 'find files', prompt: 'List the txt files.' },
            },
          ],
        },
        {
          expect: { no_tools: ['Agent'], includes: ['List the txt files.'] },
          content: [{ type: 'tool_use', id: 'sg', name: 'Glob', input: { pattern: '*.txt', path: project } }],
        },
        { expect: { tool_results: ['sg'], errors: [] }, content: [{ type: 'text', text: 'a.txt and b.txt' }] },
        // The parent's context is over the threshold: the next request is the summary.
        {
          expect: { includes: ['Summarize the conversation so far'] },
          content: [{ type: 'text', text: 'SUMMARY: a subagent was asked to list files.' }],
        },
        {
          expect: { includes: ['SUMMARY: a subagent was asked to list files.', 'a.txt and b.txt'] },
          content: [{ type: 'text', text: 'Found a.txt and b.txt.' }],
        },
      ],
    });
    const run = await runCli(['-p', 'which txt files are there?', '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'Found a.txt and b.txt.' });
  });

  it('passes --model, --append-system-prompt and --add-dir to the request; --continue picks the latest session; --debug logs calls', async () => {
    const extra = join(home, 'shared-lib');
    await mkdir(extra);
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'g', name: 'Glob', input: { pattern: '*.txt', path: project } }] },
        { content: [{ type: 'text', text: 'first answer' }] },
        {
          expect: { includes: ['list', 'and again'], tool_results: [] },
          content: [{ type: 'text', text: 'second answer' }],
        },
      ],
    });
    const first = await runCli(
      [
        '-p',
        'list',
        '--model',
        'claude-test-model',
        '--append-system-prompt',
        'Always answer in haiku.',
        '--add-dir',
        extra,
        '--debug',
      ],
      {
        cwd: project,
        env: anthropicEnv(),
      },
    );
    expect(first.stdout).toBe('first answer\n');
    expect(first.stderr).toMatch(/\[tool\] Glob g started \(batch 1\)/);
    expect(first.stderr).toMatch(/\[tool\] Glob g success/);
    expect(first.stderr).toContain('transcript: ');
    const body = server.requests[0]!.body as { model: string; system: { text: string }[] };
    expect(body.model).toBe('claude-test-model');
    const system = body.system.map((block) => block.text).join('\n');
    expect(system).toContain('Always answer in haiku.');
    expect(system).toContain(`Additional folders: ${extra}`);
    const second = await runCli(['-p', 'and again', '--continue'], { cwd: project, env: anthropicEnv() });
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('second answer\n');
  });

  it('works with an OpenAI-compatible server', async () => {
    server = await startMockOpenAIServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: join(project, 'a.txt') } }] },
        { expect: { includes: ['alpha file'] }, content: [{ type: 'text', text: 'It says alpha.' }] },
      ],
    });
    const run = await runCli(['-p', 'read a.txt'], {
      cwd: project,
      env: isolatedEnv(home, { OPENAI_BASE_URL: server.baseURL }),
    });
    expect(run.stdout).toBe('It says alpha.\n');
    expect(run.code).toBe(0);
  });

  it('stops at --max-turns with error_max_turns and a non-zero exit', async () => {
    server = await startMockAnthropicServer({
      replies: [{ content: [{ type: 'tool_use', id: 'g', name: 'Glob', input: { pattern: '*', path: project } }] }],
    });
    const run = await runCli(['-p', 'loop', '--max-turns', '1', '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true });
    expect(run.code).toBe(1);
  });

  it('stops cleanly on SIGINT: the running call is answered, the transcript flushed, exit 130', async () => {
    server = await startMockAnthropicServer({
      replies: [{ content: [{ type: 'tool_use', id: 'sleep', name: 'Bash', input: { command: 'sleep 30' } }] }],
    });
    let sent = false;
    const run = await runCli(['-p', 'wait', '--output-format', 'stream-json', '--allowedTools', 'Bash(sleep:*)'], {
      cwd: project,
      env: anthropicEnv(),
      onStdout: (text, child) => {
        if (!sent && text.includes('"type":"assistant"')) {
          sent = true;
          setTimeout(() => child.kill('SIGINT'), 200);
        }
      },
    });
    expect(run.code).toBe(130);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            message?: { content: { tool_use_id?: string; is_error?: boolean }[] };
            is_error?: boolean;
          },
      );
    const results = lines.find((line) => line.type === 'user');
    expect(results?.message?.content[0]).toMatchObject({ tool_use_id: 'sleep', is_error: true });
    expect(lines[lines.length - 1]).toMatchObject({ type: 'result', is_error: true });
    const sessionId = (lines[0] as unknown as { session_id: string }).session_id;
    const transcript = await readFile(
      join(home, '.toolplane', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`),
      'utf8',
    );
    expect(transcript).toContain('"tool_use_id":"sleep"');
  });

  // Six replies: a sixth request would get a valid call, so a run that does not stop at five succeeds.
  const sixReplies = () => [
    ...['a', 'b', 'c', 'd', 'e'].map(wrongCall),
    { content: [{ type: 'tool_use' as const, id: 'f', name: 'StructuredOutput', input: { count: 6 } }] },
  ];

  it('ends with error_max_structured_output_retries after 5 failed calls (json)', async () => {
    server = await startMockAnthropicServer({ replies: sixReplies() });
    const run = await runCli(['-p', 'count', '--json-schema', countSchema, '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_structured_output_retries', is_error: true });
    expect(result.num_turns).toBe(5);
    expect(result).not.toHaveProperty('structured_output');
    expect(String((result.errors as string[])[0])).toMatch(/5 failed StructuredOutput calls/);
    expect(server.requests).toHaveLength(5);
    expect(run.code).toBe(1);
  });

  it('ends the same way in stream-json, every call answered before the result line', async () => {
    server = await startMockAnthropicServer({ replies: sixReplies() });
    const run = await runCli(['-p', 'count', '--json-schema', countSchema, '--output-format', 'stream-json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; subtype?: string; message?: { content: unknown } });
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_structured_output_retries' });
    const answered = lines.filter((line) => line.type === 'user').map((line) => JSON.stringify(line.message));
    expect(answered).toHaveLength(5);
    expect(answered.at(-1)).toContain('"tool_use_id":"e"');
    expect(run.code).toBe(1);
  });

  it("accepts Zod 4's draft 2020-12 schema from a file and enforces its tuple", async () => {
    const schema = z.toJSONSchema(z.object({ pair: z.tuple([z.string(), z.number()]) }));
    const file = join(home, 'schema.json');
    await writeFile(file, JSON.stringify(schema));
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 's1', name: 'StructuredOutput', input: { pair: [2, 'two'] } }] },
        {
          expect: { errors: ['s1'] },
          content: [{ type: 'tool_use', id: 's2', name: 'StructuredOutput', input: { pair: ['two', 2] } }],
        },
      ],
    });
    const run = await runCli(['-p', 'pair', '--json-schema', file, '--output-format', 'json'], {
      cwd: project,
      env: anthropicEnv(),
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', structured_output: { pair: ['two', 2] } });
    expect(run.code).toBe(0);
  });

  describe('bad shapes from the model', () => {
    const runJson = (prompt: string) =>
      runCli(['-p', prompt, '--output-format', 'json'], { cwd: project, env: anthropicEnv() });

    it('answers an input nested 10,000 levels with an error result and finishes the run', async () => {
      const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
      server = await startMockAnthropicServer({
        replies: [
          { content: [{ type: 'tool_use', id: 'deep', name: 'Read', input_json: `{"file_path":${deep}}` }] },
          {
            expect: { tool_results: ['deep'], errors: ['deep'], includes: ['refused before it ran', 'levels deep'] },
            content: [{ type: 'text', text: 'Recovered.' }],
          },
        ],
      });
      const result = await runJson('read something');
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'Recovered.', num_turns: 2 });
      expect(result.code).toBe(0);
      const second = server.requests[1]!.body as Body;
      expectUniquePairs(second);
      expect(JSON.stringify(second)).toContain('__toolplane_refused_input__');
    });

    it('refuses a tool_use id reused from an earlier turn: it never runs, and every request stays valid', async () => {
      server = await startMockAnthropicServer({
        replies: [
          { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: join(project, 'a.txt') } }] },
          {
            expect: { tool_results: ['r1'], errors: [], includes: ['alpha file'] },
            content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: join(project, 'b.txt') } }],
          },
          {
            expect: {
              tool_results: ['r1_dup1'],
              errors: ['r1_dup1'],
              includes: ['already used by an earlier tool_use'],
              excludes: ['beta file'],
            },
            content: [{ type: 'text', text: 'Done.' }],
          },
        ],
      });
      const result = await runJson('read twice');
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'Done.', num_turns: 3 });
      for (const request of server.requests) expectUniquePairs(request.body as Body);
    });

    it('decides Bash lines of 40,000 commands and 40,000 nested substitutions without crashing', async () => {
      const chained = Array(40_000).fill('a').join(' && ');
      const nested = `echo ${'$( '.repeat(40_000)}true${' )'.repeat(40_000)}`;
      server = await startMockAnthropicServer({
        replies: [
          {
            content: [
              { type: 'tool_use', id: 'chain', name: 'Bash', input: { command: chained } },
              { type: 'tool_use', id: 'nest', name: 'Bash', input: { command: nested } },
            ],
          },
          {
            expect: {
              tool_results: ['chain', 'nest'],
              errors: ['chain', 'nest'],
              // Decided by the analysis (no one to approve), not by a check that failed on the way.
              includes: ['No one is available to approve it'],
              excludes: ['check failed'],
            },
            content: [{ type: 'text', text: 'Both refused.' }],
          },
        ],
      });
      const result = await runJson('run long lines');
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'Both refused.' });
      expect(result.code).toBe(0);
    });
  });
});

describe('toolplane errors', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-cli-err-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('says how to set up a provider when none is configured', async () => {
    const run = await runCli(['-p', 'hello'], { cwd: home, env: isolatedEnv(home) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No model provider is configured');
    expect(run.stderr).toContain('npm run demo');
  });

  it('stops on a settings file that cannot be parsed, naming the file and the position', async () => {
    await mkdir(join(home, '.toolplane'), { recursive: true });
    await mkdir(join(home, 'p', '.toolplane'), { recursive: true });
    await writeFile(
      join(home, 'p', '.toolplane', 'settings.json'),
      '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n',
    );
    const run = await runCli(['-p', 'hello'], {
      cwd: join(home, 'p'),
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(join(home, 'p', '.toolplane', 'settings.json'));
    expect(run.stderr).toMatch(/3:\d+/);
  });

  it('rejects unknown flags with usage and exit 2', async () => {
    const run = await runCli(['--no-such-flag'], { cwd: home, env: isolatedEnv(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--help');
  });

  it('prints help and version', async () => {
    const help = await runCli(['--help'], { cwd: home, env: isolatedEnv(home) });
    expect(help.stdout).toContain('permissions explain');
    expect(help.code).toBe(0);
    const version = await runCli(['--version'], { cwd: home, env: isolatedEnv(home) });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
