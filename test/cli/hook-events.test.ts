import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { useCliProject } from './cli-project.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** StopFailure, InstructionsLoaded and ConfigChange hooks from a project's .claude/settings.json, through the whole command. */
describe('telling hook events, through the whole command', () => {
  const context = useCliProject('toolplane-hook-events-cli-');

  /** Settings whose `event` hooks append their input to `<name>.jsonl`, one per matcher. */
  async function recordingHooks(
    event: string,
    matchers: readonly string[],
  ): Promise<(name: string) => Promise<unknown[]>> {
    const groups = matchers.map((matcher) => ({
      matcher,
      hooks: [
        {
          type: 'command',
          command: `cat >> ${join(context.home, `${matcher}.jsonl`)}; echo >> ${join(context.home, `${matcher}.jsonl`)}`,
        },
      ],
    }));
    await writeFile(join(context.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { [event]: groups } }));
    return async (name) => {
      const file = join(context.home, `${name}.jsonl`);
      if (!existsSync(file)) return [];
      const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
      return lines.map((line) => JSON.parse(line) as unknown);
    };
  }

  const run = (args: readonly string[]) =>
    runCli(['-p', 'go', '--trust-project', ...args], {
      cwd: context.project,
      env: isolatedEnv(context.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: context.server!.baseURL }),
    });

  it('StopFailure fires, instead of Stop, when the API refuses the key (401), matched on its error class', async () => {
    const seen = await recordingHooks('StopFailure', ['authentication_failed', 'rate_limit']);
    const settingsFile = join(context.project, '.claude', 'settings.json');
    const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as { hooks: Record<string, unknown> };
    const stopRan = join(context.home, 'stop-ran');
    settings.hooks['Stop'] = [{ hooks: [{ type: 'command', command: `touch ${stopRan}` }] }];
    await writeFile(settingsFile, JSON.stringify(settings));
    context.server = await startMockAnthropicServer({ replies: [{ kind: 'error', status: 401 }] });
    const result = await run([]);
    expect(result.code).not.toBe(0);
    const [input, ...more] = await seen('authentication_failed');
    expect(more).toEqual([]);
    expect(input).toMatchObject({
      hook_event_name: 'StopFailure',
      error: 'authentication_failed',
      cwd: context.project,
    });
    expect((input as { error_details: string }).error_details).toContain('401');
    expect(input).not.toHaveProperty('last_assistant_message');
    expect(await seen('rate_limit')).toEqual([]);
    expect(existsSync(stopRan)).toBe(false);
  });

  it('StopFailure after retries of a 500, with the answer the turn had given before it failed', async () => {
    const seen = await recordingHooks('StopFailure', ['server_error']);
    context.server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'text', text: 'Looking at the folder' },
            { type: 'tool_use', id: 'ls', name: 'Bash', input: { command: 'true' } },
          ],
        },
        { kind: 'error', status: 500, retryAfterSeconds: 0.01 },
        { kind: 'error', status: 500, retryAfterSeconds: 0.01 },
      ],
    });
    const result = await run(['--permission-mode', 'bypassPermissions', '--settings', '{"maxRetries": 1}']);
    expect(result.code).not.toBe(0);
    expect(await seen('server_error')).toEqual([
      expect.objectContaining({
        error: 'server_error',
        error_details: expect.stringContaining('(after 2 attempts)') as unknown,
        last_assistant_message: 'Looking at the folder',
      }),
    ]);
  });

  it('InstructionsLoaded fires once per instruction file at start, outermost first, matched on session_start', async () => {
    const seen = await recordingHooks('InstructionsLoaded', ['session_start', 'compact']);
    await writeFile(join(context.home, 'CLAUDE.md'), 'Be brief.');
    await writeFile(join(context.project, 'AGENTS.md'), 'Run the tests.');
    await writeFile(join(context.project, 'CLAUDE.md'), 'Use tabs.');
    context.server = await startMockAnthropicServer({ replies: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const result = await run([]);
    expect(result.code, result.stderr).toBe(0);
    const inputs = (await seen('session_start')) as Record<string, unknown>[];
    expect(inputs.map((input) => [input['file_path'], input['memory_type'], input['load_reason']])).toEqual([
      [join(context.home, 'CLAUDE.md'), 'Project', 'session_start'],
      [join(context.project, 'AGENTS.md'), 'Project', 'session_start'],
      [join(context.project, 'CLAUDE.md'), 'Project', 'session_start'],
    ]);
    expect(inputs.every((input) => input['hook_event_name'] === 'InstructionsLoaded')).toBe(true);
    expect(await seen('compact')).toEqual([]);
    // A matcher that can match only what toolplane never sends is told at start, by name.
    expect(result.stderr).toMatch(
      /InstructionsLoaded hook "cat >> .*compact\.jsonl.*" never runs: its matcher "compact"/,
    );
  });

  it('InstructionsLoaded does not fire when --system-prompt replaces the instructions', async () => {
    const seen = await recordingHooks('InstructionsLoaded', ['session_start']);
    await writeFile(join(context.project, 'CLAUDE.md'), 'Use tabs.');
    context.server = await startMockAnthropicServer({ replies: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const result = await run(['--system-prompt', 'You are terse.']);
    expect(result.code, result.stderr).toBe(0);
    expect(await seen('session_start')).toEqual([]);
  });

  it('ConfigChange fires when a tool call writes .claude/settings.local.json; its block is reported, the file stays held', async () => {
    const seen = await recordingHooks('ConfigChange', ['user_settings']);
    const settings = JSON.parse(await readFile(join(context.project, '.claude', 'settings.json'), 'utf8')) as {
      hooks: { ConfigChange: unknown[] };
    };
    const local = join(context.project, '.claude', 'settings.local.json');
    const record = `cat > ${join(context.home, 'local.json')}; echo "settings are frozen" >&2; exit 2`;
    settings.hooks.ConfigChange.push({ matcher: 'local_settings', hooks: [{ type: 'command', command: record }] });
    await writeFile(join(context.project, '.claude', 'settings.json'), JSON.stringify(settings));
    const plant = `node -e "require('fs').writeFileSync('.claude/settings.local.json', JSON.stringify({permissions: {allow: ['Bash']}}))"`;
    context.server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: plant } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const result = await run([
      '--permission-mode',
      'bypassPermissions',
      '--settings',
      JSON.stringify({ sandbox: { enabled: false } }),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(local)).toBe(true);
    expect(JSON.parse(await readFile(join(context.home, 'local.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'ConfigChange',
      source: 'local_settings',
      file_path: local,
    });
    expect(await seen('user_settings')).toEqual([]);
    expect(result.stderr).toContain(`${local} was changed by a tool call. Until a person confirms it`);
    expect(result.stderr).toContain(
      `toolplane: a ConfigChange hook blocked the change to ${local}: settings are frozen (the change does not apply to this session in any case)`,
    );
  });

  it('hooks list marks a hook whose matcher toolplane never sends, and tells apart unsupported and unknown events', async () => {
    const hooks = {
      Notification: [
        { matcher: 'permission_prompt', hooks: [{ type: 'command', command: 'true' }] },
        { matcher: 'idle_prompt', hooks: [{ type: 'command', command: 'true' }] },
      ],
      WorktreeCreate: [{ hooks: [{ type: 'command', command: 'true' }] }],
      Notifications: [{ hooks: [{ type: 'command', command: 'true' }] }],
    };
    await writeFile(join(context.project, '.claude', 'settings.json'), JSON.stringify({ hooks }));
    const listed = await runCli(['hooks', 'list', '--json', '--trust-project'], {
      cwd: context.project,
      env: isolatedEnv(context.home),
    });
    expect(listed.code, listed.stderr).toBe(0);
    const entries = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(entries.map((entry) => [entry['event'], entry['matcher'], entry['problem']])).toEqual([
      ['Notification', 'permission_prompt', undefined],
      [
        'Notification',
        'idle_prompt',
        'its matcher "idle_prompt" matches none of what toolplane sends (permission_prompt)',
      ],
    ]);
    expect(listed.stderr).toContain(
      'hook event "WorktreeCreate" is one Claude Code has, but toolplane has no such feature (no worktree isolation for agents); its hooks never run',
    );
    expect(listed.stderr).toContain('hook event "Notifications" is unknown; its hooks are ignored');
  });
});
