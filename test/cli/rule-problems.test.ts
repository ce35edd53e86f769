import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from './run-cli.js';

describe('toolplane reports problems with permission rules at start', () => {
  let home: string;
  let project: string;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-rules-home-'));
    project = join(home, 'project');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(
      join(project, 'script.jsonl'),
      `${JSON.stringify({ content: [{ type: 'text', text: 'done' }] })}\n`,
    );
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('prints each problem once, through the session, with the file it is in', async () => {
    const settingsFile = join(project, '.toolplane', 'settings.json');
    await writeFile(
      settingsFile,
      JSON.stringify({
        permissions: {
          deny: ['Bash(rm *', 'Nonexistent', 'Read(a\u0001b)'],
          ask: ['WebFetch(example.com)'],
          allow: ['Bash(git status)'],
        },
      }),
    );
    const run = await runCli(
      ['-p', 'hi', '--provider', 'scripted', '--script', 'script.jsonl', '--disallowedTools', 'Bash(command:rm *)'],
      { cwd: project, env: isolatedEnv(home, { TOOLPLANE_TRUST_PROJECT: '1' }) },
    );
    expect(run.stdout).toBe('done\n');
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toEqual(
      expect.arrayContaining([
        `error: ${settingsFile}: Permission rule Bash(rm * has an unclosed parenthesis; write Tool(specifier).`,
        `warning: ${settingsFile}: deny rule Nonexistent names Nonexistent, which is not a known tool.`,
        `error: ${settingsFile}: Rule Read(a\\u0001b) contains a control character.`,
        `error: ${settingsFile}: Rule WebFetch(example.com): WebFetch rules are written WebFetch(domain:example.com).`,
        expect.stringMatching(/Bash\(command:rm \*\) is ignored: command is Bash's primary field/),
      ]),
    );
    for (const rule of ['Bash(rm *', 'Nonexistent', 'WebFetch(example.com)', 'Bash(command:rm *)'])
      expect(lines.filter((line) => line.includes(rule))).toHaveLength(1);
    expect(lines.some((line) => line.includes('Bash(git status)'))).toBe(false);
  });
});
