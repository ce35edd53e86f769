import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { toolResultText } from './request-body.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** A settings hook with "if", as Claude Code projects write them, through the whole command. */
describe('hooks from a .claude/settings.json, through the whole command', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-hook-if-cli-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude'), { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('blocks the call its rule matches and starts for no other', async () => {
    const started = join(home, 'hook-started');
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  if: 'Bash(git push:*)',
                  command: `echo "$(date +%s%N)" >> ${started}; echo "pushing is reviewed" >&2; exit 2`,
                },
              ],
            },
          ],
        },
      }),
    );
    const made = join(project, 'made');
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'ok', name: 'Bash', input: { command: `touch ${made}` } },
            { type: 'tool_use', id: 'push', name: 'Bash', input: { command: 'cd . && git push origin main' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(made)).toBe(true);
    expect(toolResultText(server.requests[1]!.body, 'push')).toContain('pushing is reviewed');
    // One start: the push. The touch started no hook process.
    expect((await readFile(started, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/"if" filter is not supported/);
  });
  it("a SubagentStart hook's context reaches the subagent's first request, never the parent's", async () => {
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          SubagentStart: [
            {
              hooks: [
                {
                  type: 'command',
                  command: `printf '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"cite the rubric"}}'`,
                },
              ],
            },
          ],
        },
      }),
    );
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'a1', name: 'Agent', input: { description: 'look', prompt: 'look around' } },
          ],
        },
        { content: [{ type: 'text', text: 'the report' }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(server.requests[1]!.body)).toContain('cite the rubric');
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('cite the rubric');
  });
  it('a PermissionDenied hook hears of a call a rule refused, and of no call that ran', async () => {
    const heard = join(home, 'denied.jsonl');
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Bash(rm:*)'] },
        hooks: {
          PermissionDenied: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `cat >> ${heard}; echo >> ${heard}` }] },
          ],
        },
      }),
    );
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'rm1', name: 'Bash', input: { command: 'rm -rf build' } },
            { type: 'tool_use', id: 'ok1', name: 'Bash', input: { command: `touch ${join(project, 'made')}` } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    const events = (await readFile(heard, 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([
      expect.objectContaining({
        hook_event_name: 'PermissionDenied',
        tool_name: 'Bash',
        tool_use_id: 'rm1',
        tool_input: { command: 'rm -rf build' },
        reason: expect.stringContaining('Bash(rm:*)'),
      }),
    ]);
  });

  it("an async hook's late context goes with the results of the calls it outran, in the same turn", async () => {
    const context = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'the audit log noted the sleep' },
    });
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', async: true, command: `sleep 0.2; echo '${context}'` }] },
          ],
        },
      }),
    );
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'nap', name: 'Bash', input: { command: 'sleep 1.5' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    const second = JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(second).toContain('"tool_use_id":"nap"');
    expect(second).toContain('the audit log noted the sleep');
  });
});
