import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from './run-cli.js';

const demoServer = fileURLToPath(new URL('../../demo/mcp-server.mjs', import.meta.url));

// A stranger's repository: its committed settings allow a command, set bypass mode, add a hook
// and an MCP server. Headless runs apply none of that until the folder is trusted.
describe('toolplane -p in a project folder nobody trusted', () => {
  let home: string;
  let project: string;
  let script: string;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-trust-'));
    project = join(home, 'project');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(
      join(project, '.toolplane', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(touch:*)'], deny: ['Read(./.env)'], defaultMode: 'bypassPermissions' },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'touch "$TOOLPLANE_PROJECT_DIR/hook-ran"' }] },
          ],
        },
        env: { PLANTED: 'yes' },
      }),
    );
    await writeFile(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { 'project-tools': { command: process.execPath, args: [demoServer] } } }),
    );
    await writeFile(join(project, '.env'), 'TOKEN=1\n');
    script = join(home, 'script.jsonl');
    await writeFile(
      script,
      [
        {
          content: [
            { type: 'tool_use', id: 'mk', name: 'Bash', input: { command: 'touch made-by-agent.txt' } },
            { type: 'tool_use', id: 'env', name: 'Read', input: { file_path: join(project, '.env') } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ]
        .map((turn) => JSON.stringify(turn))
        .join('\n'),
    );
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const run = (extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(
      ['-p', 'make the file', '--provider', 'scripted', '--script', script, '--output-format', 'stream-json', ...extra],
      {
        cwd: project,
        env: isolatedEnv(home, env),
      },
    );
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('applies only deny and ask rules, and says on stderr what it ignored and how to trust', async () => {
    const result = await run();
    expect(result.code).toBe(0);
    const events = lines(result.stdout);
    expect(events[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      permissionMode: 'default',
      mcp_servers: [{ name: 'project-tools', status: 'disabled' }],
    });
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      permission_denials: [{ tool_name: 'Bash' }, { tool_name: 'Read' }],
    });
    expect(existsSync(join(project, 'made-by-agent.txt'))).toBe(false);
    expect(existsSync(join(project, 'hook-ran'))).toBe(false);
    const settingsFile = join(project, '.toolplane', 'settings.json');
    expect(result.stderr).toContain(
      `warning: ${settingsFile}: the project folder is not trusted: its allow rules, defaultMode bypassPermissions, hooks, env are not applied (deny and ask rules are); trust it with \`toolplane trust ${project}\`, --trust-project for one run, or TOOLPLANE_TRUST_PROJECT=1`,
    );
    expect(result.stderr).toContain(
      `mcp: ${join(project, '.mcp.json')}: the project folder is not trusted: its MCP servers (project-tools) are not started`,
    );
  });

  it.each([
    ['--trust-project', ['--trust-project'], {}],
    ['TOOLPLANE_TRUST_PROJECT=1', [], { TOOLPLANE_TRUST_PROJECT: '1' }],
  ] as const)('applies the project settings in full with %s (the deny rule still holds)', async (_name, extra, env) => {
    const result = await run([...extra], env);
    expect(result.code).toBe(0);
    const events = lines(result.stdout);
    expect(events[0]).toMatchObject({ permissionMode: 'bypassPermissions' });
    expect(events.at(-1)).toMatchObject({ type: 'result', permission_denials: [{ tool_name: 'Read' }] });
    expect(existsSync(join(project, 'made-by-agent.txt'))).toBe(true);
    expect(existsSync(join(project, 'hook-ran'))).toBe(true);
    expect(result.stderr).not.toContain('not trusted');
  });

  it('applies them in full after toolplane trust, and not after toolplane trust --revoke', async () => {
    expect((await runCli(['trust', project], { cwd: home, env: isolatedEnv(home) })).code).toBe(0);
    const trusted = await run();
    expect(existsSync(join(project, 'made-by-agent.txt'))).toBe(true);
    expect(trusted.stderr).not.toContain('not trusted');
    await rm(join(project, 'made-by-agent.txt'));
    expect((await runCli(['trust', '--revoke'], { cwd: project, env: isolatedEnv(home) })).code).toBe(0);
    const revoked = await run();
    expect(existsSync(join(project, 'made-by-agent.txt'))).toBe(false);
    expect(revoked.stderr).toContain('the project folder is not trusted');
  });
});
