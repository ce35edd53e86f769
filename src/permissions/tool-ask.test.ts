import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { PermissionMode } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { createPermissionEngine } from './permission-engine.js';

function askingTool(withSuggestions: boolean) {
  return defineTool({
    name: 'Ticket',
    inputSchema: z.object({}),
    prompt: 'x',
    checkPermissions: () => ({
      behavior: 'ask',
      message: 'Open a ticket?',
      reason: { kind: 'tool', message: 'Ticket asks' },
      ...(withSuggestions
        ? { suggestions: [{ rule: 'Ticket', behavior: 'allow' as const, destination: 'localSettings' as const }] }
        : {}),
    }),
    call: async () => 'ok',
  });
}

async function decide(withSuggestions: boolean, allow: boolean, mode: PermissionMode = 'default') {
  const engine = createPermissionEngine({
    rules: allow ? [{ rule: 'Ticket', behavior: 'allow', source: 'localSettings', root: '/w' }] : [],
    cwd: '/w',
    homeDir: '/h',
    mode,
  });
  const context = {
    toolUseId: 't',
    signal: new AbortController().signal,
    cwd: '/w',
    sessionId: 's',
    agentId: 'main',
    permissionMode: mode,
    services: createServices(),
  };
  return engine.decide({ tool: askingTool(withSuggestions), input: {}, toolUseId: 't', context });
}

describe("a tool's own ask", () => {
  test('is answered by an allow rule when the tool offered that rule ("always allow" works)', async () => {
    expect(await decide(true, true)).toMatchObject({ behavior: 'allow', reason: { kind: 'rule', rule: 'Ticket' } });
  });
  test('asks without the rule', async () => {
    expect((await decide(true, false)).behavior).toBe('ask');
  });
  test('always prompts when the tool offers no rule to save, even with an allow rule or in bypass mode', async () => {
    expect((await decide(false, true)).behavior).toBe('ask');
    expect((await decide(false, false, 'bypassPermissions')).behavior).toBe('ask');
  });
  test('is denied in dontAsk mode', async () => {
    expect((await decide(false, false, 'dontAsk')).behavior).toBe('deny');
  });
});

describe('plan mode', () => {
  const writer = defineTool({
    name: 'Deploy',
    inputSchema: z.object({}),
    prompt: 'x',
    checkPermissions: () => ({ behavior: 'allow', reason: { kind: 'tool', message: 'Deploy allows itself' } }),
    call: async () => 'ok',
  });
  const reader = defineTool({
    name: 'Peek',
    inputSchema: z.object({}),
    prompt: 'x',
    isReadOnly: () => true,
    call: async () => 'ok',
  });

  test("holds against the tool's own allow and a hook's allow until the plan is approved", async () => {
    const engine = createPermissionEngine({ rules: [], cwd: '/w', homeDir: '/h', mode: 'plan' });
    const context = {
      toolUseId: 't',
      signal: new AbortController().signal,
      cwd: '/w',
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'plan' as const,
      services: createServices(),
    };
    expect(await engine.decide({ tool: writer, input: {}, toolUseId: 't', context })).toMatchObject({
      behavior: 'deny',
      reason: { kind: 'mode', mode: 'plan' },
    });
    expect(
      await engine.decide({
        tool: writer,
        input: {},
        toolUseId: 't',
        context,
        hookDecision: { decision: 'allow', hook: 'ok.sh' },
      }),
    ).toMatchObject({ behavior: 'deny' });
    expect(
      (
        await engine.decide({
          tool: reader,
          input: {},
          toolUseId: 't',
          context,
          hookDecision: { decision: 'allow', hook: 'ok.sh' },
        })
      ).behavior,
    ).toBe('allow');
  });
});
