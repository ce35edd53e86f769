import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { useCliProject } from './cli-project.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** The ledger of a real run: each call's path, with the rule's file, in the session's transcript. */
describe('the decision ledger of a run', () => {
  const context = useCliProject('toolplane-ledger-cli-');

  /** Runs one headless turn against the mock server and returns the ledger's entries by call id. */
  async function runAndReadLedger(): Promise<Map<unknown, Record<string, unknown>>> {
    const run = await runCli(['-p', 'go', '--trust-project', '--output-format', 'json'], {
      cwd: context.project,
      env: isolatedEnv(context.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: context.server!.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const files = (await readdir(join(context.home, '.toolplane'), { recursive: true })).filter((name) =>
      String(name).endsWith(`${sessionId}.jsonl`),
    );
    expect(files).toHaveLength(1);
    const lines = (await readFile(join(context.home, '.toolplane', String(files[0])), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; event?: Record<string, unknown> });
    return new Map(
      lines.flatMap((line) =>
        line.event?.['type'] === 'tool-decision' ? [[line.event['toolUseId'], line.event]] : [],
      ),
    );
  }

  it('records the deny rule with its file, the hook that answered, and the call that ran', async () => {
    const settings = join(context.project, '.claude', 'settings.json');
    await writeFile(
      settings,
      JSON.stringify({
        permissions: { deny: ['Bash(curl:*)'], allow: ['Bash(echo:*)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null' }] }] },
      }),
    );
    context.server = await startMockAnthropicServer({
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
    const ledger = await runAndReadLedger();
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

  it("records the sandbox profile, a spilled output's file, and a subagent's calls with their agent", async () => {
    await writeFile(
      join(context.project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(touch:*)', 'Bash(seq:*)'] } }),
    );
    await writeFile(join(context.project, 'notes.txt'), 'hello from notes\n');
    context.server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'list', name: 'Bash', input: { command: 'ls' } },
            { type: 'tool_use', id: 'make', name: 'Bash', input: { command: 'touch made.txt' } },
          ],
        },
        { content: [{ type: 'tool_use', id: 'many', name: 'Bash', input: { command: 'seq 1 300000' } }] },
        {
          content: [{ type: 'tool_use', id: 'sub', name: 'Agent', input: { description: 'read', prompt: 'read it' } }],
        },
        {
          content: [
            { type: 'tool_use', id: 'inner', name: 'Read', input: { file_path: join(context.project, 'notes.txt') } },
          ],
        },
        { content: [{ type: 'text', text: 'the notes say hello' }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const ledger = await runAndReadLedger();
    // ls is judged read-only: it runs in the read-only profile, without network.
    expect(ledger.get('list')).toMatchObject({
      status: 'success',
      sandbox: { placement: 'sandboxed', profile: 'read-only', network: false },
    });
    expect(ledger.get('make')).toMatchObject({
      status: 'success',
      decision: { behavior: 'allow', reason: { kind: 'rule', rule: 'Bash(touch:*)' } },
      sandbox: { placement: 'sandboxed', profile: 'workspace' },
    });
    const many = ledger.get('many') as { result: { savedTo?: string; chars: number } };
    expect(many.result.savedTo).toBeDefined();
    // The file named holds the whole output; the model got only a preview of it.
    const saved = await readFile(many.result.savedTo!, 'utf8');
    expect(saved).toContain('\n300000');
    expect(many.result.chars).toBeLessThan(saved.length);
    const sub = ledger.get('sub') as { agent?: unknown; status: string };
    expect(sub).toMatchObject({ tool: 'Agent', status: 'success' });
    expect(sub.agent).toBeUndefined();
    const inner = ledger.get('inner') as { agent: { agentId: string; parentToolUseId: string } };
    expect(inner).toMatchObject({ tool: 'Read', status: 'success', agent: { parentToolUseId: 'sub' } });
    expect(inner.agent.agentId).toMatch(/^agent-/);
    expect(ledger.get('list')).not.toHaveProperty('agent');
  });
});
