import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { toolResultText } from './request-body.js';
import { isolatedEnv, runCli } from './run-cli.js';

describe('a Claude Code project, unchanged (toolplane -p against a mock Anthropic server)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-claude-project-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude', 'hooks'), { recursive: true });
    await writeFile(join(project, '.env'), 'TOKEN=secret\n');
    // A hook as published for Claude Code: its script named through $CLAUDE_PROJECT_DIR.
    const guard = join(project, '.claude', 'hooks', 'guard.sh');
    await writeFile(guard, '#!/bin/sh\ncat > /dev/null\necho "guard says no" >&2\nexit 2\n');
    await chmod(guard, 0o755);
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Read(./.env)'], allow: ['Bash(echo:*)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] },
          ],
        },
      }),
    );
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  it('applies its .claude/settings.json: the hook runs through $CLAUDE_PROJECT_DIR, the deny rule names its file', async () => {
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'echo hello' } },
            { type: 'tool_use', id: 'r', name: 'Read', input: { file_path: join(project, '.env') } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--output-format', 'json'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    const second = server.requests[1]!.body;
    expect(toolResultText(second, 'b')).toContain('guard says no');
    expect(toolResultText(second, 'r')).toContain(join(project, '.claude', 'settings.json'));
    expect(toolResultText(second, 'r')).not.toContain('secret');
  });

  it('names a hook whose script is missing at start and on the call it was meant for', async () => {
    const settings = join(project, '.claude', 'settings.json');
    await writeFile(
      settings,
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.sh' }] },
          ],
        },
      }),
    );
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'echo hello' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--output-format', 'json'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    const missing = join(project, '.claude', 'hooks', 'gone.sh');
    const named = run.stderr.split('\n').filter((line) => line.includes('$CLAUDE_PROJECT_DIR'));
    expect(named[0]).toContain(`its script ${missing} does not exist`);
    expect(named.some((line) => line.includes('exited with code 127 (its command or script was not found)'))).toBe(
      true,
    );
    // Without failClosed it blocks nothing: the call ran.
    expect(toolResultText(server.requests[1]!.body, 'b')).toContain('hello');
  });

  it('shows the Claude Code files it read in permissions explain', async () => {
    const explain = await runCli(
      ['permissions', 'explain', '--tool', 'Read', '--input', JSON.stringify({ file_path: join(project, '.env') })],
      { cwd: project, env: isolatedEnv(home) },
    );
    expect(explain.stdout).toMatch(/^deny: /);
    expect(explain.stdout).toContain(`settings files read: ${join(project, '.claude', 'settings.json')}`);
  });
});
