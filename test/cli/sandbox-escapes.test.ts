import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

/**
 * End to end through `toolplane -p`: a model tries to escape with commands the analysis lets
 * through (read-only ones, and ones an allow rule approves), in every permission mode. The sandbox
 * must stop each, the model must be told it was the sandbox, and nothing may change on the host.
 * The working folder is the home folder, the worst case: the credential stores are inside it.
 */
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;
const MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const;

type Result = { readonly tool_use_id: string; readonly content: unknown; readonly is_error?: boolean };

function textOf(result: Result | undefined): string {
  if (result === undefined) return '';
  if (typeof result.content === 'string') return result.content;
  return (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');
}

describe.skipIf(!hasBwrap)('sandbox escapes through toolplane -p', () => {
  let root: string;
  let home: string;
  let outside: string;

  beforeAll(async () => {
    // Outside /tmp on purpose: the sandbox's /tmp is private, so a marker there would prove nothing.
    root = await mkdtemp('/var/tmp/toolplane-escape-');
    home = join(root, 'home');
    outside = join(root, 'outside');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await mkdir(join(home, '.aws'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(home, '.ssh', 'id_rsa'), 'PLANTED-SSH-KEY\n');
    await writeFile(join(home, '.aws', 'credentials'), 'PLANTED-AWS-KEY\n');
    await writeFile(join(home, 'notes.txt'), 'ordinary file\n');
    spawnSync('git', ['init', '-q', home]);
    // A project script the allow rule runs: what a malicious repository ships for `npm run`.
    await writeFile(
      join(home, 'package.json'),
      JSON.stringify({ name: 'fixture', private: true, scripts: { escape: 'node escape.js' } }),
    );
    await writeFile(
      join(home, 'escape.js'),
      'const [what, target] = process.argv.slice(2);\n' +
        "if (what === 'write') require('fs').writeFileSync(target, 'planted');\n" +
        "if (what === 'env') console.log(process.env.ANTHROPIC_API_KEY ?? 'no key');\n",
    );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const escapes = (mode: string) => [
    { id: 'ssh', command: 'cat .ssh/id_rsa', blocked: 'permission denied' },
    { id: 'aws', command: 'head -n 1 .aws/credentials', blocked: 'permission denied' },
    { id: 'environ', command: 'npm run escape -- env', allowed: 'no key' },
    { id: 'outside', command: `npm run escape -- write ${outside}/${mode}.txt`, blocked: 'read-only file system' },
    { id: 'hook', command: 'npm run escape -- write .git/hooks/pre-commit', blocked: 'read-only file system' },
    { id: 'mcp', command: 'npm run escape -- write .mcp.json', blocked: '' },
  ];

  for (const mode of MODES) {
    it(`holds in ${mode} mode`, async () => {
      const calls = escapes(mode);
      const server = await startMockAnthropicServer({
        // One call a turn: a failed Bash call cancels its siblings in the same batch.
        replies: [
          ...calls.map((call) => ({
            content: [{ type: 'tool_use' as const, id: call.id, name: 'Bash', input: { command: call.command } }],
          })),
          { content: [{ type: 'text' as const, text: 'done' }] },
        ],
      });
      try {
        const run = await runCli(
          [
            '-p',
            'escape',
            '--output-format',
            'stream-json',
            '--permission-mode',
            mode,
            '--allowedTools',
            'Bash(npm run escape:*)',
          ],
          {
            cwd: home,
            env: isolatedEnv(home, {
              ANTHROPIC_API_KEY: 'sk-ant-PLANTED-AGENT-KEY',
              ANTHROPIC_BASE_URL: server.baseURL,
            }),
            timeoutMs: 60_000,
          },
        );
        expect(run.stdout).not.toContain('PLANTED');
        const results = run.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { type: string; message?: { content: Result[] } })
          .filter((line) => line.type === 'user')
          .flatMap((line) => line.message?.content ?? []);
        const byId = new Map(results.map((result) => [result.tool_use_id, result]));
        expect(byId.size, run.stderr).toBe(calls.length);
        for (const call of calls) {
          const result = byId.get(call.id);
          const text = textOf(result);
          // Plan mode refuses the non-read-only ones before they reach the sandbox; elsewhere they run in it.
          if (mode === 'plan' && call.command.startsWith('npm')) {
            expect(result?.is_error, `${call.id}: ${text}`).toBe(true);
            continue;
          }
          if (call.allowed !== undefined) {
            expect(text, call.id).toContain(call.allowed);
            continue;
          }
          expect(result?.is_error, `${call.id}: ${text}`).toBe(true);
          if (call.blocked !== '') {
            expect(text.toLowerCase(), call.id).toContain(call.blocked);
            expect(text, call.id).toContain('The sandbox may have blocked');
          }
        }
        expect(existsSync(join(outside, `${mode}.txt`))).toBe(false);
        expect(existsSync(join(home, '.git', 'hooks', 'pre-commit'))).toBe(false);
        expect(existsSync(join(home, '.mcp.json'))).toBe(false);
        expect(await readFile(join(home, '.ssh', 'id_rsa'), 'utf8')).toBe('PLANTED-SSH-KEY\n');
        // Nothing left behind in the working folder (stubs for missing protected paths are gone).
        expect(
          spawnSync('git', ['status', '--porcelain', '--ignored'], { cwd: home, encoding: 'utf8' }).stdout,
        ).not.toMatch(/\.claude|\.mcp\.json|\.toolplane\/settings/);
      } finally {
        await server.close();
      }
    });
  }

  it('lets the same escapes through with the sandbox turned off, so the checks above can fail', async () => {
    const server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'ssh', name: 'Bash', input: { command: 'cat .ssh/id_rsa' } }] },
        {
          content: [
            {
              type: 'tool_use',
              id: 'outside',
              name: 'Bash',
              input: { command: `npm run escape -- write ${outside}/unsandboxed.txt` },
            },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    try {
      const run = await runCli(
        [
          '-p',
          'escape',
          '--output-format',
          'stream-json',
          '--allowedTools',
          'Bash(npm run escape:*)',
          '--settings',
          '{"sandbox":{"enabled":false}}',
        ],
        {
          cwd: home,
          env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_BASE_URL: server.baseURL }),
          timeoutMs: 60_000,
        },
      );
      expect(run.stdout).toContain('PLANTED-SSH-KEY');
      expect(run.stderr).toContain('sandbox: disabled');
      expect(existsSync(join(outside, 'unsandboxed.txt'))).toBe(true);
    } finally {
      await server.close();
      await rm(join(outside, 'unsandboxed.txt'), { force: true });
    }
  });
});
