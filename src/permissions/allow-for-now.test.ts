import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import type { CallSubject } from '../contract/gates.js';
import type { PermissionDecision, PermissionRuleEntry } from '../contract/permission.js';
import { callSubject } from '../hooks/__fixtures__/call-subject.js';
import { initShellParser } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';

let cwd: string;
beforeAll(async () => {
  cwd = mkdtempSync(path.join(tmpdir(), 'toolplane-grant-'));
  await initShellParser();
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const bashTool = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve('unused'),
});

function bash(command: string): CallSubject {
  return callSubject(bashTool, { command }, cwd);
}

function engineWith(rules: readonly { behavior: PermissionRuleEntry['behavior']; rule: string }[]) {
  return createPermissionEngine({
    rules: rules.map((rule) => ({ ...rule, source: 'userSettings' as const, root: cwd })),
    cwd,
    homeDir: cwd,
    caseInsensitive: false,
  });
}

const behaviorOf = (decision: PermissionDecision | Promise<PermissionDecision>) =>
  (decision as PermissionDecision).behavior;

describe('allowForNow', () => {
  test('allows while in force, with the file as its source, and asks again once revoked', () => {
    const engine = engineWith([{ behavior: 'allow', rule: 'Bash(ls:*)' }]);
    expect(behaviorOf(engine.decide(bash('npm install')))).toBe('ask');
    const grant = engine.allowForNow({ rules: ['Bash(npm install:*)'], file: '/p/.toolplane/commands/st.md' });
    expect(grant.problems).toEqual([]);
    expect(engine.decide(bash('npm install'))).toMatchObject({
      behavior: 'allow',
      reason: { kind: 'rule', rule: 'Bash(npm install:*)', source: 'session', file: '/p/.toolplane/commands/st.md' },
    });
    grant.revoke();
    grant.revoke();
    expect(behaviorOf(engine.decide(bash('npm install')))).toBe('ask');
    // The settings' own rule is untouched.
    expect(behaviorOf(engine.decide(bash('ls -la')))).toBe('allow');
  });

  test('never outweighs a deny or an ask rule', () => {
    const engine = engineWith([
      { behavior: 'deny', rule: 'Bash(touch:*)' },
      { behavior: 'ask', rule: 'Bash(git push:*)' },
    ]);
    const grant = engine.allowForNow({ rules: ['Bash'], file: '/p/c.md' });
    expect(behaviorOf(engine.decide(bash('touch marker')))).toBe('deny');
    expect(behaviorOf(engine.decide(bash('git push origin')))).toBe('ask');
    expect(behaviorOf(engine.decide(bash('make build')))).toBe('allow');
    grant.revoke();
    expect(behaviorOf(engine.decide(bash('make build')))).toBe('ask');
  });

  test('a rule added after start is matched even where rules of the same command were looked up before', () => {
    const engine = engineWith([{ behavior: 'allow', rule: 'Bash(git stash:*)' }]);
    expect(behaviorOf(engine.decide(bash('git commit -m x')))).toBe('ask');
    const grant = engine.allowForNow({ rules: ['Bash(git commit:*)'], file: '/p/c.md' });
    expect(behaviorOf(engine.decide(bash('git commit -m x')))).toBe('allow');
    grant.revoke();
    expect(behaviorOf(engine.decide(bash('git commit -m x')))).toBe('ask');
    expect(behaviorOf(engine.decide(bash('git stash')))).toBe('allow');
  });

  test('reports a rule that cannot be parsed and grants the rest', () => {
    const engine = engineWith([]);
    const grant = engine.allowForNow({ rules: ['Bash(make:*', 'Bash(make:*)'], file: '/p/c.md' });
    expect(grant.problems.length).toBeGreaterThan(0);
    expect(behaviorOf(engine.decide(bash('make build')))).toBe('allow');
  });
});
