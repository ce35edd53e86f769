import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { explainDecision } from './explain-decision.js';

const cwd = mkdtempSync(path.join(tmpdir(), 'toolplane-secrets-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function decide(
  tool: string,
  input: unknown,
  mode: 'default' | 'bypassPermissions' | 'acceptEdits' = 'bypassPermissions',
) {
  return (
    await explainDecision({
      toolName: tool,
      input,
      rules: [
        { rule: 'Bash(cat:*)', behavior: 'allow', source: 'userSettings', root: cwd },
        { rule: 'Read', behavior: 'allow', source: 'userSettings', root: cwd },
      ],
      mode,
      cwd,
      homeDir: cwd,
    })
  ).decision;
}

describe("a process's environment and memory (they hold the session's credentials)", () => {
  test.each([
    'cat /proc/self/environ',
    'cat /proc/$PPID/environ',
    'cat /proc/*/environ',
    "tr '\\0' '\\n' < /proc/1/environ",
    'cat /proc/1/task/1/environ',
    'cd /proc/self && cat environ',
    'dd if=/proc/self/mem bs=1 count=1',
  ])('Bash `%s` is never approved without a person, even in bypass mode or under an allow rule', async (command) => {
    expect(await decide('Bash', { command })).toBe('ask');
  });

  test('Read of /proc/self/environ asks even with an allow rule and in bypass mode', async () => {
    expect(await decide('Read', { file_path: '/proc/self/environ' })).toBe('ask');
  });

  test('ordinary reads still run', async () => {
    expect(await decide('Bash', { command: 'cat README.md' }, 'default')).toBe('allow');
    expect(await decide('Bash', { command: 'cat /proc/cpuinfo' })).toBe('allow');
  });
});
