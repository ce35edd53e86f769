import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** The ledger of a real run: each call's path, with the rule's file, in the session's transcript. */
describe('the decision ledger of a run', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-ledger-cli-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude'), { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('records the deny rule with its file, the hook that answered, and the call that ran', async () => {
    const settings = join(project, '.claude', 'settings.json');
    await writeFile(
      settings,
      JSON.stringify({
        permissions: { deny: ['Bash(curl:*)'], allow: ['Bash(echo:*)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null' }] }] },
      }),
    );
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'net', name: 'Bash', input: { command: 'curl -s http://127.0.0.1:9/' } },
            { type: 'tool_use', id: 'say', name: 'Bash', input: { command: 'echo hi' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--trust-project', '--output-format', 'json'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const files = (await readdir(join(home, '.toolplane'), { recursive: true })).filter((name) =>
      String(name).endsWith(`${sessionId}.jsonl`),
    );
    expect(files).toHaveLength(1);
    const lines = (await readFile(join(home, '.toolplane', String(files[0])), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; event?: Record<string, unknown> });
    const ledger = new Map(
      lines.flatMap((line) =>
        line.event?.['type'] === 'tool-decision' ? [[line.event['toolUseId'], line.event]] : [],
      ),
    );
    expect(ledger.get('net')).toMatchObject({
      tool: 'Bash',
      status: 'denied',
      decision: { behavior: 'deny', reason: { kind: 'rule', rule: 'Bash(curl:*)', file: settings } },
      deniedBy: { kind: 'rule', rule: 'Bash(curl:*)' },
    });
    expect(ledger.get('say')).toMatchObject({
      tool: 'Bash',
      status: 'success',
      decision: { behavior: 'allow', reason: { kind: 'rule', rule: 'Bash(echo:*)', file: settings } },
      hooks: [{ event: 'PreToolUse', hook: 'cat > /dev/null', status: 'success' }],
      result: { isError: false },
    });
    expect((ledger.get('say') as { hooks: { ms: number }[] }).hooks[0]!.ms).toBeGreaterThan(0);
  });
});
