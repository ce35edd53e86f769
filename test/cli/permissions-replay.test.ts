import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { useCliProject } from './cli-project.js';
import { isolatedEnv, runCli } from './run-cli.js';

type Replayed = {
  calls: number;
  changes: {
    tool: string;
    input: { command?: string; file_path?: string };
    cwd: string;
    recorded: { kind: string };
    now: { decision: string };
  }[];
};

/** `permissions replay`: past calls decided again under a candidate policy, running nothing. */
describe('toolplane permissions replay', () => {
  const context = useCliProject('toolplane-replay-');

  const replay = async (args: string[]) => {
    const run = await runCli(['permissions', 'replay', '--json', ...args], {
      cwd: context.project,
      env: isolatedEnv(context.home),
    });
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Replayed;
  };

  it("lists the recorded session's calls a new policy decides otherwise, labels a hook's, and runs nothing", async () => {
    const late = join(context.project, 'late');
    await writeFile(
      join(context.project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)'], deny: ['Bash(curl:*)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(rm:*)', command: 'echo "no rm" >&2; exit 2' }] },
          ],
        },
      }),
    );
    const call = (id: string, command: string) => ({ type: 'tool_use' as const, id, name: 'Bash', input: { command } });
    context.server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            call('say', 'echo hi'),
            call('net', 'curl -s http://127.0.0.1:9/'),
            call('wipe', 'rm -rf build'),
            call('make', `touch ${late}`),
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project'], {
      cwd: context.project,
      env: isolatedEnv(context.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: context.server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(late)).toBe(false);
    await writeFile(
      join(context.home, 'new.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(curl:*)', 'Bash(echo:*)', 'Bash(touch:*)'], deny: ['Bash(echo:*)'] },
      }),
    );
    const replayed = await replay(['--settings', join(context.home, 'new.json')]);
    expect(replayed.calls).toBe(4);
    const byCommand = new Map(replayed.changes.map((change) => [change.input.command, change]));
    expect(byCommand.get('echo hi')).toMatchObject({ recorded: { kind: 'allow' }, now: { decision: 'deny' } });
    expect(byCommand.get('curl -s http://127.0.0.1:9/')).toMatchObject({
      recorded: { kind: 'deny' },
      now: { decision: 'allow' },
    });
    expect(byCommand.get('rm -rf build')).toMatchObject({ recorded: { kind: 'hook' }, now: { decision: 'ask' } });
    expect(byCommand.get(`touch ${late}`)).toMatchObject({ recorded: { kind: 'deny' }, now: { decision: 'allow' } });
    // Replaying decided; it ran nothing.
    expect(existsSync(late)).toBe(false);
    const text = await runCli(['permissions', 'replay', '--settings', join(context.home, 'new.json')], {
      cwd: context.project,
      env: isolatedEnv(context.home),
    });
    expect(text.stdout).toMatch(
      /rm -rf build"\}\n {4}was: denied by hook echo "no rm" >&2; exit 2 \(hooks are not run again\)\n {4}now: ask/,
    );
    expect(text.stdout).toContain('4 calls decided again, 4 would change');
  });

  it("reads a Claude Code transcript, resolving each call's paths against the folder it ran in", async () => {
    // The line shapes follow https://claude-dev.tools/docs/jsonl-format: `type` user|assistant,
    // `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`, and the API `message` with its content blocks.
    const elsewhere = join(context.home, 'other-project');
    const line = (type: string, uuid: string, parentUuid: string | null, content: unknown[]) =>
      JSON.stringify({
        type,
        uuid,
        parentUuid,
        sessionId: 'cc-session',
        timestamp: '2026-11-30T10:00:00.000Z',
        cwd: elsewhere,
        version: '2.1.200',
        message: { role: type, content },
      });
    const transcript = join(context.home, '.claude', 'projects', '-other-project', 'cc-session.jsonl');
    await mkdir(join(context.home, '.claude', 'projects', '-other-project'), { recursive: true });
    await writeFile(
      transcript,
      [
        line('user', 'u1', null, [{ type: 'text', text: 'look around' }]),
        line('assistant', 'a1', 'u1', [
          { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: join(elsewhere, 'secret.txt') } },
          { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'npm test' } },
        ]),
        line('user', 'u2', 'a1', [
          { type: 'tool_result', tool_use_id: 'r1', content: 'TOP SECRET' },
          { type: 'tool_result', tool_use_id: 'b1', content: 'ok' },
        ]),
        '{"type":"summary","summary":"a summary line of another kind"}',
      ].join('\n'),
    );
    await writeFile(
      join(context.home, 'new.json'),
      JSON.stringify({ permissions: { deny: ['Read(./secret.txt)'], allow: ['Bash(npm test)'] } }),
    );
    const replayed = await replay([transcript, '--settings', join(context.home, 'new.json')]);
    expect(replayed.calls).toBe(2);
    expect(replayed.changes).toHaveLength(1);
    expect(replayed.changes[0]).toMatchObject({
      tool: 'Read',
      cwd: elsewhere,
      recorded: { kind: 'unknown', ran: true },
      now: { decision: 'deny' },
    });
  });
});
