import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from './run-cli.js';

/** `toolplane permissions test FILE`: a policy's expected decisions, checked as CI would run them. */
describe('toolplane permissions test', () => {
  let home: string;
  let project: string;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-policy-test-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude'), { recursive: true });
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(curl:*)', 'Read(./.env)'], allow: ['Bash(npm test)'] } }),
    );
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const cases = [
    { name: 'no curl', tool: 'Bash', input: { command: 'curl https://example.com' }, expect: 'deny' },
    { name: 'curl behind a cd', tool: 'Bash', input: { command: 'cd src && curl -s x.org' }, expect: 'deny' },
    { name: 'tests run unasked', tool: 'Bash', input: { command: 'npm test' }, expect: 'allow' },
    { tool: 'Read', input: { file_path: '.env' }, expect: 'deny' },
    // Wrong on purpose: the policy asks for any other command.
    { name: 'npm publish is allowed', tool: 'Bash', input: { command: 'npm publish' }, expect: 'allow' },
    {
      name: 'plan mode refuses writes',
      tool: 'Write',
      input: { file_path: 'a.txt', content: 'x' },
      expect: 'deny',
      mode: 'plan',
    },
    {
      name: 'a case adds its own rule',
      tool: 'Bash',
      input: { command: 'make' },
      expect: 'allow',
      settings: { permissions: { allow: ['Bash(make)'] } },
    },
  ];

  async function check(body: unknown, args: string[] = []) {
    await writeFile(join(home, 'policy.json'), JSON.stringify(body));
    return runCli(['permissions', 'test', join(home, 'policy.json'), '--trust-project', ...args], {
      cwd: project,
      env: isolatedEnv(home),
    });
  }

  it('passes the cases the policy meets and names the rule or check behind each failure, exit code 1', async () => {
    const run = await check({ cases });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('✔ no curl');
    expect(run.stdout).toContain('✔ curl behind a cd');
    expect(run.stdout).toContain('✔ tests run unasked');
    expect(run.stdout).toContain('✔ Read {"file_path":".env"}');
    expect(run.stdout).toContain('✔ plan mode refuses writes');
    expect(run.stdout).toContain('✔ a case adds its own rule');
    expect(run.stdout).toMatch(/✘ npm publish is allowed\n {4}expected allow, got ask: /);
    expect(run.stdout).toContain('6 passed, 1 failed');
  });

  it('exits 0 when every case holds, and the same file fails once the policy loosens', async () => {
    const kept = cases.filter((each) => each.name !== 'npm publish is allowed');
    expect((await check({ cases: kept })).code).toBe(0);
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    const loosened = await check({ cases: kept });
    expect(loosened.code).toBe(1);
    expect(loosened.stdout).toMatch(
      /✘ no curl\n {4}expected deny, got allow: allowed by rule Bash from .*\/project\/\.claude\/settings\.json\n/,
    );
  });

  it('writes TAP and JUnit for CI', async () => {
    const tap = await check({ cases }, ['--format', 'tap']);
    expect(tap.code).toBe(1);
    const lines = tap.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['TAP version 13', `1..${cases.length}`]);
    expect(lines.filter((line) => /^ok \d+ - /.test(line))).toHaveLength(6);
    expect(lines).toContain('not ok 5 - npm publish is allowed');
    expect(tap.stdout).toMatch(/not ok 5[^\n]*\n {2}---\n {2}expected: allow\n {2}got: ask\n/);

    const junit = await check({ cases }, ['--format', 'junit']);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites tests="7" failures="1">/);
    expect(junit.stdout.match(/<testcase /g)).toHaveLength(7);
    expect(junit.stdout).toMatch(
      /<testcase classname="permissions" name="npm publish is allowed">\n\s*<failure message="expected allow, got ask: /,
    );
    expect(junit.stdout).toContain('name="Read {&quot;file_path&quot;:&quot;.env&quot;}"');
  });

  it('refuses a malformed test file with where it is wrong, exit code 2, and decides nothing', async () => {
    const run = await check({ cases: [{ tool: 'Bash', input: { command: 'ls' }, expect: 'maybe' }] });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/policy\.json: cases\.0\.expect: /);
    expect(run.stdout).toBe('');
    const unknown = await check({ cases: [{ tool: 'Bash', expect: 'deny', extra: 1 }] });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cases\.0/);
    expect((await check({ cases }, ['--format', 'xml'])).code).toBe(2);
    const broken = await check({ settings: 'missing.json', cases: cases.slice(0, 1) });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('missing.json');
  });

  it('keeps each case on its own line: a name cannot forge TAP lines or break the XML', async () => {
    const forged = { ...cases[0]!, name: 'x\nok 99 - injected\u0001' };
    const tap = await check({ cases: [forged] }, ['--format', 'tap']);
    expect(tap.stdout.split('\n').filter((line) => /^(not )?ok /.test(line))).toEqual(['ok 1 - x ok 99 - injected ']);
    const junit = await check({ cases: [forged] }, ['--format', 'junit']);
    expect(junit.stdout).toContain('name="x ok 99 - injected "');
    expect(junit.stdout).not.toContain('\u0001');
  });
});
