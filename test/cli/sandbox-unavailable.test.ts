import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** Where no sandbox can run: a notice at start, `doctor` says why, and failIfUnavailable asks instead. */
describe('toolplane without a usable sandbox', () => {
  let root: string;
  let project: string;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    root = await mkdtemp('/var/tmp/toolplane-nosandbox-');
    project = join(root, 'project');
    await mkdir(project);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(root, { recursive: true, force: true });
  });
  const env = (extra: Record<string, string> = {}) =>
    isolatedEnv(root, {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server?.baseURL ?? 'http://127.0.0.1:9',
      TOOLPLANE_BWRAP: join(root, 'no-bwrap-here'),
      ...extra,
    });

  it('says so at start and runs the command unsandboxed by default', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'touch made-here' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(['-p', 'go', '--allowedTools', 'Bash(touch:*)'], { cwd: project, env: env() });
    expect(run.stderr).toMatch(/sandbox: not available: bubblewrap could not be started/);
    expect(run.stderr).toContain('apt-get install bubblewrap');
    expect(run.code).toBe(0);
    expect(existsSync(join(project, 'made-here'))).toBe(true);
  });

  it('with failIfUnavailable, asks instead — denied with no one to ask, even with an allow rule and in bypass mode', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'touch made-here' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(
      [
        '-p',
        'go',
        '--output-format',
        'json',
        '--permission-mode',
        'bypassPermissions',
        '--allowedTools',
        'Bash(touch:*)',
        '--settings',
        '{"sandbox":{"failIfUnavailable":true}}',
      ],
      { cwd: project, env: env() },
    );
    const result = JSON.parse(run.stdout) as { permission_denials: { tool_use_id: string }[] };
    expect(result.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['t']);
    expect(run.stderr).toContain('every Bash command will ask');
    expect(existsSync(join(project, 'made-here'))).toBe(false);
  });

  it('doctor explains why and how to fix it, and exits 1', async () => {
    const run = await runCli(['doctor'], { cwd: project, env: env() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/sandbox: NOT available — bubblewrap could not be started/);
    expect(run.stdout).toContain('fix: Install bubblewrap');
  });

  it('doctor passes its self-test where bubblewrap works', async () => {
    const run = await runCli(['doctor', '--json'], { cwd: project, env: isolatedEnv(root) });
    const report = JSON.parse(run.stdout) as {
      sandbox: { available: boolean };
      checks: { name: string; ok: boolean }[];
    };
    if (!report.sandbox.available) return; // no bubblewrap on this machine: the test above covers it
    expect(run.code).toBe(0);
    expect(report.checks.map((check) => [check.name, check.ok])).toEqual([
      ['read-only profile refuses writes', true],
      ['read-only profile has a private /tmp', true],
      ['workspace profile writes the working folder', true],
      ['masked secrets are unreadable', true],
    ]);
  });
});
