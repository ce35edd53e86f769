import { describe, expect, it } from 'vitest';
import type { PermissionGate } from '../contract/gates.js';
import type { ToolUseBlock } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createFakeApprover, createFakeHookGate } from '../testing/fake-gates.js';
import { sampleTools } from '../testing/sample-tools.js';
import { combineHookVerdict } from './combine-hook-verdict.js';
import { runToolUses } from './run-tool-uses.js';

const use = (id: string): ToolUseBlock => ({ type: 'tool_use', id, name: 'Echo', input: { text: 'hi' } });

/** A host's gate that allows every call and ignores `hookDecision` altogether. */
const allowEverything: PermissionGate = {
  preCheck: () => undefined,
  decide: () => ({ behavior: 'allow', reason: { kind: 'rule', rule: 'Echo', source: 'session' } }),
};

function plane(hooks: ReturnType<typeof createFakeHookGate>, approver?: ReturnType<typeof createFakeApprover>) {
  return {
    pool: assembleToolPool({ builtins: sampleTools }),
    permissions: allowEverything,
    hooks,
    cwd: '/tmp',
    sessionId: 's',
    ...(approver ? { approver } : {}),
  };
}

describe("a host gate that allows everything and a hook's verdict", () => {
  it("keeps the hook's deny: the call does not run", async () => {
    const hooks = createFakeHookGate({ preToolUse: () => ({ decision: 'deny', reason: 'not here', hook: 'policy' }) });
    const run = await runToolUses([use('a')], plane(hooks));
    expect(run.records[0]!.outcome.status).toBe('hook-blocked');
    expect(run.message.content[0]!.is_error).toBe(true);
  });

  it("keeps the hook's ask: a person is asked, and with no one to answer the call is denied", async () => {
    const hooks = createFakeHookGate({
      preToolUse: () => ({ decision: 'ask', reason: 'a person must see this', hook: 'policy' }),
    });
    const approver = createFakeApprover({ behavior: 'deny' });
    const asked = await runToolUses([use('a')], plane(hooks, approver));
    expect(approver.requests).toHaveLength(1);
    expect(asked.records[0]!.outcome.status).toBe('denied');
    const unanswered = await runToolUses([use('b')], plane(hooks));
    expect(unanswered.records[0]!.outcome.status).toBe('denied');
    expect(unanswered.message.content[0]!.content).toContain('No one is available to approve it');
  });

  it("runs the call once a person approves the hook's ask", async () => {
    const hooks = createFakeHookGate({ preToolUse: () => ({ decision: 'ask', hook: 'policy' }) });
    const run = await runToolUses([use('a')], plane(hooks, createFakeApprover({ behavior: 'allow' })));
    expect(run.message.content[0]!.content).toBe('hi');
  });
});

describe('combineHookVerdict', () => {
  const allow = { behavior: 'allow', reason: { kind: 'mode', mode: 'bypassPermissions' } } as const;
  const deny = { behavior: 'deny', message: 'no', reason: { kind: 'rule', rule: 'Echo', source: 'session' } } as const;
  const ask = { behavior: 'ask', message: 'ok?', reason: { kind: 'default', message: 'no rule' } } as const;

  it('lets the most restrictive win: deny > ask > allow', () => {
    expect(combineHookVerdict({ decision: allow, hook: { decision: 'ask' }, toolName: 'Echo' }).behavior).toBe('ask');
    expect(combineHookVerdict({ decision: allow, hook: { decision: 'deny' }, toolName: 'Echo' }).behavior).toBe('deny');
    expect(combineHookVerdict({ decision: ask, hook: { decision: 'deny' }, toolName: 'Echo' }).behavior).toBe('deny');
    expect(combineHookVerdict({ decision: deny, hook: { decision: 'allow' }, toolName: 'Echo' })).toBe(deny);
    expect(combineHookVerdict({ decision: ask, hook: { decision: 'allow' }, toolName: 'Echo' })).toBe(ask);
    expect(combineHookVerdict({ decision: allow, hook: {}, toolName: 'Echo' })).toBe(allow);
  });

  it('names the hook that asked', () => {
    const combined = combineHookVerdict({
      decision: allow,
      hook: { decision: 'ask', hook: 'policy.sh', reason: 'look first' },
      toolName: 'Echo',
    });
    expect(combined).toEqual({
      behavior: 'ask',
      message: 'look first',
      reason: { kind: 'hook', hook: 'policy.sh', message: 'look first' },
    });
  });
});
