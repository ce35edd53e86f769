import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { CLI, isolatedEnv, runCli } from './run-cli.js';

/** The text of the first user message of a recorded request body. */
function firstPrompt(body: unknown): string {
  const first = (body as { messages: { content: unknown }[] }).messages[0]!.content;
  if (typeof first === 'string') return first;
  return (first as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('');
}

/**
 * A Claude Code project's custom slash commands (`.claude/commands/*.md`) in `-p` and over
 * stream-json, as in the terminal UI: `/name arguments` expands the file, its `!` lines go
 * through the plane (where no one can answer an ask: denied), and `allowed-tools` applies only in
 * a trusted folder. The real command runs against a mock Anthropic server on 127.0.0.1.
 */
describe('custom slash commands outside the terminal UI', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-commands-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude', 'commands'), { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const command = (name: string, text: string) => writeFile(join(project, '.claude', 'commands', `${name}.md`), text);
  const serve = async () => {
    server = await startMockAnthropicServer({ replies: [{ content: [{ type: 'text', text: 'reviewed' }] }] });
    return isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL });
  };
  const print = async (prompt: string, extra: readonly string[] = []) => {
    const env = await serve();
    const run = await runCli(['-p', prompt, '--output-format', 'json', ...extra], { cwd: project, env });
    return { run, sent: firstPrompt(server!.requests[0]!.body) };
  };

  it('-p "/review FILE" sends the expanded file, with an allowed `!` line replaced by its output', async () => {
    await command(
      'review',
      '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS with care.\n!`echo shell-said-hi`\n',
    );
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(echo:*)'] } }),
    );
    const { run, sent } = await print('/review src/a.ts', ['--trust-project']);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'reviewed' });
    expect(sent).toContain('Review src/a.ts with care.');
    expect(sent).toContain('shell-said-hi');
    expect(sent).not.toContain('!`echo');
  });

  it('a `!` line no rule allows is denied, not run (no one can answer in -p)', async () => {
    const marker = join(project, 'ran');
    await command('setup', `Set up.\n!\`touch ${marker}\`\n`);
    const { run, sent } = await print('/setup', ['--trust-project']);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(sent).toContain(`(the command \`touch ${marker}\` did not run:`);
  });

  it("an untrusted folder's allowed-tools are not applied; trusted, they are (the look-alike)", async () => {
    const marker = join(project, 'ran');
    await command('setup', `---\nallowed-tools: Bash(touch:*)\n---\nSet up.\n!\`touch ${marker}\`\n`);
    const untrusted = await print('/setup');
    expect(untrusted.run.stderr).toContain('are not applied: this folder is not trusted');
    expect(existsSync(marker)).toBe(false);
    await server?.close();
    const trusted = await print('/setup', ['--trust-project']);
    expect(trusted.run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('SIGINT during a `!` line ends the run with 130 and sends nothing', async () => {
    const started = join(project, 'started');
    await command('slow', `Slow.\n!\`touch ${started} && sleep 30\`\n`);
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(touch:*)', 'Bash(sleep:*)'] } }),
    );
    const env = await serve();
    const child = spawn(process.execPath, [CLI, '-p', '/slow', '--trust-project', '--output-format', 'json'], {
      cwd: project,
      env,
    });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    // The result is written as for any interrupted run, and says why.
    expect(JSON.parse(stdout)).toMatchObject({ type: 'result', is_error: true, num_turns: 0 });
    expect(stdout + stderr).toContain('/slow was interrupted before its prompt was sent');
    expect(server!.requests).toHaveLength(0);
  }, 30_000);

  it('a prompt that only starts with a slash reaches the model as written', async () => {
    await command('review', 'Review $ARGUMENTS.\n');
    const { sent } = await print('/etc/hosts: what is in it?');
    expect(sent).toBe('/etc/hosts: what is in it?');
    await server?.close();
    const escaped = await print('//review this line as written');
    expect(escaped.sent).toBe('/review this line as written');
  });

  it('tells what is wrong with a broken command file', async () => {
    await command('broken', '---\ndescription: [unclosed\n---\nbody\n');
    const { run } = await print('/broken now');
    expect(run.stderr).toContain('broken.md');
  });

  it('the Agent SDK lists the commands and runs one sent as a prompt', async () => {
    await command('review', '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n');
    const env = await serve();
    const messages: SDKMessage[] = [];
    const session = query({
      prompt: '/review notes.md',
      options: { pathToClaudeCodeExecutable: CLI, executable: 'node', cwd: project, env },
    });
    const commands = await session.supportedCommands();
    for await (const message of session) messages.push(message);
    expect(commands).toContainEqual(
      expect.objectContaining({ name: 'review', description: 'Review a file', argumentHint: '<file>' }),
    );
    const init = messages.find((message) => message.type === 'system' && message.subtype === 'init');
    expect(init).toMatchObject({ slash_commands: ['review'] });
    expect(firstPrompt(server!.requests[0]!.body)).toBe('Review notes.md.');
  });
});
