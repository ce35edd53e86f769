import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { toolResultText } from './request-body.js';
import { isolatedEnv, runCli, type CliRun } from './run-cli.js';

const fixture = fileURLToPath(new URL('../fixtures/claude-project', import.meta.url));
const nodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

// A Claude Code project as a team would commit it (test/fixtures/claude-project), copied and run
// unchanged: the outcomes asserted are those Claude Code's hooks and permissions docs describe.
describe('a realistic Claude Code project, copied and run unchanged by toolplane -p', () => {
  let home: string;
  let project: string;
  let server: MockModelServer;
  let run: CliRun;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-claude-fixture-'));
    project = join(home, 'inventory');
    await cp(fixture, project, { recursive: true });
    // The project's .mcp.json starts its server from node_modules, as an installed project would.
    await symlink(nodeModules, join(project, 'node_modules'));
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'rm', name: 'Bash', input: { command: 'rm -rf node_modules/.cache' } },
            { type: 'tool_use', id: 'npm', name: 'Bash', input: { command: 'npm run test:unit' } },
            { type: 'tool_use', id: 'node', name: 'Bash', input: { command: 'node src/stock.test.js' } },
            { type: 'tool_use', id: 'env', name: 'Read', input: { file_path: join(project, '.env') } },
            { type: 'tool_use', id: 'key', name: 'Read', input: { file_path: join(project, 'secrets', 'api.yaml') } },
            { type: 'tool_use', id: 'src', name: 'Read', input: { file_path: join(project, 'src', 'stock.js') } },
          ],
        },
        {
          content: [
            {
              type: 'tool_use',
              id: 'edit',
              name: 'Edit',
              input: {
                file_path: join(project, 'src', 'stock.js'),
                old_string: 'never below zero',
                new_string: 'never below zero (an order larger than the stock empties it)',
              },
            },
            {
              type: 'tool_use',
              id: 'ts',
              name: 'ToolSearch',
              input: { query: 'select:mcp__filesystem__list_directory,mcp__filesystem__read_text_file' },
            },
          ],
        },
        {
          content: [
            { type: 'tool_use', id: 'ls', name: 'mcp__filesystem__list_directory', input: { path: project } },
            {
              type: 'tool_use',
              id: 'cat',
              name: 'mcp__filesystem__read_text_file',
              input: { path: join(project, '.env') },
            },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    run = await runCli(['-p', 'tidy up and run the tests', '--trust-project', '--output-format', 'json'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
      timeoutMs: 60_000,
    });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await rm(home, { recursive: true, force: true });
  });

  const result = (id: string): string => {
    const last = server.requests.at(-1)!.body;
    return toolResultText(last, id);
  };

  it('finishes the scripted session', () => {
    expect(server.mismatches).toEqual([]);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
  });

  it('adds the UserPromptSubmit hook stdout (exit 0) to the prompt', () => {
    expect(JSON.stringify(server.requests[0]!.body)).toContain('Project reminder: the inventory service runs in');
  });

  // Found here, not yet fixed: the settings `env` does not reach the hook's environment (Claude Code
  // applies it to hooks); the hook prints INVENTORY_ENV=unset.
  it('gives hooks the env of the settings (INVENTORY_ENV=test)', () => {
    expect(JSON.stringify(server.requests[0]!.body)).toContain('INVENTORY_ENV=test');
  });

  it('blocks a command the Python hook rejects (exit 2), its stderr the tool result', () => {
    expect(result('rm')).toContain('Do not delete recursively with rm -rf');
  });

  it('runs a command allowed only by .claude/settings.local.json', () => {
    expect(result('node')).toContain('stock tests passed');
  });

  // Claude Code's documented example: `:*` lets the last word go on after a colon.
  it('runs npm run test:unit, allowed by Bash(npm run test:*)', () => {
    expect(result('npm')).toContain('stock tests passed');
  });

  it('holds the deny rules: .env and secrets/ are never read, their content in no request', () => {
    expect(result('env')).toContain(join(project, '.claude', 'settings.json'));
    expect(result('key')).toContain(join(project, '.claude', 'settings.json'));
    for (const request of server.requests) {
      const body = JSON.stringify(request.body);
      expect(body).not.toContain('hunter2-fixture-secret');
      expect(body).not.toContain('sk-fixture-secret');
    }
  });

  it('names the missing hook script at start and on the Read it was meant for, and does not block it', () => {
    const missing = join(project, '.claude', 'hooks', 'missing.sh');
    const lines = run.stderr.split('\n').filter((line) => line.includes('missing.sh'));
    expect(lines[0]).toContain(`its script ${missing} does not exist`);
    expect(lines.some((line) => line.includes('exited with code 127'))).toBe(true);
    expect(result('src')).toContain('export function remaining');
  });

  it('runs the PostToolUse shell hook after the Edit (allowed by the local settings), which logs it', async () => {
    expect(result('edit')).not.toMatch(/denied|not allowed/i);
    expect(await readFile(join(project, 'src', 'stock.js'), 'utf8')).toContain('empties it');
    expect(await readFile(join(project, '.claude', 'edits.log'), 'utf8')).toBe(
      `Edit ${join(project, 'src', 'stock.js')}\n`,
    );
  });

  it("runs the .mcp.json server's allowed tool; its other tools get no approval in -p", () => {
    expect(result('ls')).toContain('[DIR] src');
    expect(result('cat')).not.toContain('hunter2');
    expect(result('cat')).toMatch(/permission|approv|denied|ask/i);
  });
});
