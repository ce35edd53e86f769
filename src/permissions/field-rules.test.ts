import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { createPermissionEngine } from './permission-engine.js';

const tool = defineTool({
  name: 'Deploy',
  inputSchema: z.object({ env: z.string(), region: z.string().optional() }),
  prompt: 'x',
  call: async () => 'ok',
});

function decide(rules: readonly PermissionRuleEntry[], input: unknown) {
  const engine = createPermissionEngine({ rules, cwd: '/work', homeDir: '/root' });
  const context = {
    toolUseId: 't',
    signal: new AbortController().signal,
    cwd: '/work',
    sessionId: 's',
    agentId: 'main',
    permissionMode: 'default' as const,
    services: createServices(),
  };
  return engine.decide({ tool, input, toolUseId: 't', context });
}

const rule = (text: string, behavior: 'deny' | 'ask'): PermissionRuleEntry => ({
  rule: text,
  behavior,
  source: 'projectSettings',
  root: '/work',
});

describe('input-field rules tested together', () => {
  const many = [
    rule('Deploy(env:staging-*)', 'deny'),
    rule('Deploy(env:qa)', 'deny'),
    rule('Deploy(region:eu-*)', 'deny'),
    rule('Deploy(env:prod*)', 'deny'),
    rule('Deploy(env:prod-eu)', 'deny'),
  ];

  test('the first matching rule still decides, with its own text', async () => {
    const decision = await decide(many, { env: 'prod-eu' });
    expect(decision).toMatchObject({ behavior: 'deny', reason: { kind: 'rule', rule: 'Deploy(env:prod*)' } });
  });

  test('a rule on another field matches on its own field', async () => {
    expect(await decide(many, { env: 'dev', region: 'eu-west' })).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Deploy(region:eu-*)' },
    });
  });

  test('no rule matches: not denied', async () => {
    expect((await decide(many, { env: 'dev', region: 'us-east' })).behavior).not.toBe('deny');
  });

  test('special characters in a glob are literal', async () => {
    const rules = [rule('Deploy(env:a.b)', 'deny'), rule('Deploy(env:(x|y))', 'deny'), rule('Deploy(env:c+d)', 'deny')];
    expect((await decide(rules, { env: 'aXb' })).behavior).not.toBe('deny');
    expect((await decide(rules, { env: 'x' })).behavior).not.toBe('deny');
    expect(await decide(rules, { env: '(x|y)' })).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Deploy(env:(x|y))' },
    });
  });
});
