import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { explainDecision } from './explain-decision.js';

let root: string;
let cwd: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-explain-'));
  cwd = path.join(root, 'project');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(path.join(cwd, '.env'), 'x');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const rule = (behavior: PermissionRuleEntry['behavior'], text: string): PermissionRuleEntry => ({
  rule: text,
  behavior,
  source: 'projectSettings',
  file: path.join(cwd, '.toolplane', 'settings.json'),
  root: cwd,
});

const explain = (toolName: string, input: unknown, rules: readonly PermissionRuleEntry[] = [], mode?: 'dontAsk') =>
  explainDecision({ toolName, input, rules, cwd, homeDir: root, ...(mode ? { mode } : {}) });

describe('explainDecision', () => {
  test('a denied read names the rule and its file', async () => {
    expect(await explain('Read', { file_path: '.env' }, [rule('deny', 'Read(.env)')])).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('Read(.env)'),
      rule: 'Read(.env)',
      source: path.join(cwd, '.toolplane', 'settings.json'),
      allowsAnyCode: null,
    });
  });

  test('a read inside the working folder is allowed without a rule', async () => {
    expect(await explain('Read', { file_path: 'src/x.ts' })).toMatchObject({
      decision: 'allow',
      rule: null,
      source: null,
      reason: expect.stringContaining('inside the working folders'),
    });
  });

  test('Bash without a rule asks, with no rule to name', async () => {
    expect(await explain('Bash', { command: 'npm test' })).toMatchObject({
      decision: 'ask',
      rule: null,
      reason: expect.stringContaining('npm test'),
    });
  });

  test('an allow rule is named', async () => {
    expect(await explain('Bash', { command: 'npm test' }, [rule('allow', 'Bash(npm test:*)')])).toMatchObject({
      decision: 'allow',
      rule: 'Bash(npm test:*)',
    });
  });

  test('dontAsk turns the would-be prompt into a deny', async () => {
    expect((await explain('Write', { file_path: 'x.ts' }, [], 'dontAsk')).decision).toBe('deny');
  });

  test('MCP and unknown tool names work without a tool object', async () => {
    expect((await explain('mcp__github__get_issue', {})).decision).toBe('ask');
    expect(await explain('mcp__github__get_issue', {}, [rule('allow', 'mcp__github')])).toMatchObject({
      decision: 'allow',
      rule: 'mcp__github',
    });
    expect((await explain('SomethingElse', {})).decision).toBe('ask');
  });

  test("a supplied tool's own check is used", async () => {
    const tool = defineTool({
      name: 'Custom',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () => ({
        behavior: 'deny',
        message: 'Custom is off today.',
        reason: { kind: 'tool', message: 'off' },
      }),
      call: () => Promise.resolve(''),
    });
    expect(await explainDecision({ toolName: 'Custom', input: {}, rules: [], cwd, homeDir: root, tool })).toEqual({
      decision: 'deny',
      reason: 'Custom is off today.',
      rule: null,
      source: null,
      allowsAnyCode: null,
    });
  });

  test('warns when the allow rule that decided allows any code, and not for a bounded look-alike', async () => {
    const anyCode = await explain('Bash', { command: 'python -c "import os; os.system(1)"' }, [
      rule('allow', 'Bash(python:*)'),
    ]);
    expect(anyCode).toMatchObject({
      decision: 'allow',
      rule: 'Bash(python:*)',
      allowsAnyCode: expect.stringContaining('python runs whatever script'),
    });
    const bounded = await explain('Bash', { command: 'python manage.py test' }, [
      rule('allow', 'Bash(python manage.py test:*)'),
    ]);
    expect(bounded).toMatchObject({ decision: 'allow', allowsAnyCode: null });
    // A deny by the same kind of rule is no reason to warn.
    expect(await explain('Bash', { command: 'python x.py' }, [rule('deny', 'Bash(python:*)')])).toMatchObject({
      decision: 'deny',
      allowsAnyCode: null,
    });
  });
});
