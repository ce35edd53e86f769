import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { CallSubject, PreToolUseOutcome } from '../contract/gates.js';
import { createServices } from '../contract/services.js';
import { createHookGate } from './create-hook-gate.js';
import type { FunctionHook } from './hook-types.js';

/** What one injected hook does. */
type Behavior =
  | 'none'
  | 'allow'
  | 'allow-rewrite'
  | 'ask'
  | 'defer'
  | 'deny'
  | 'stop'
  | 'throw'
  | 'throw-open'
  | 'garbage-open'
  | 'context';

const BEHAVIORS: readonly Behavior[] = [
  'none',
  'allow',
  'allow-rewrite',
  'ask',
  'defer',
  'deny',
  'stop',
  'throw',
  'throw-open',
  'garbage-open',
  'context',
];

const tool = defineTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'p',
  call: () => Promise.resolve(''),
});
const subject: CallSubject = {
  tool,
  input: { command: 'x' },
  toolUseId: 't',
  context: {
    toolUseId: 't',
    signal: new AbortController().signal,
    cwd: '/w',
    sessionId: 's',
    agentId: 'main',
    permissionMode: 'bypassPermissions',
    services: createServices(),
  },
};

function hookFor(behavior: Behavior, index: number): FunctionHook {
  const name = `h${index}-${behavior}`;
  const decide = (permissionDecision: 'allow' | 'ask' | 'deny' | 'defer') => () => ({
    hookSpecificOutput: { permissionDecision },
  });
  const callbacks: Record<Behavior, FunctionHook['callback']> = {
    none: () => undefined,
    allow: decide('allow'),
    'allow-rewrite': () => ({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: name } } }),
    ask: decide('ask'),
    defer: decide('defer'),
    deny: decide('deny'),
    stop: () => ({ continue: false }),
    throw: () => {
      throw new Error('injected');
    },
    'throw-open': () => {
      throw new Error('injected');
    },
    'garbage-open': () => 42 as never,
    context: () => ({ hookSpecificOutput: { additionalContext: name } }),
  };
  return { event: 'PreToolUse', name, failClosed: !behavior.endsWith('-open'), callback: callbacks[behavior] };
}

function expected(behaviors: readonly Behavior[]): PreToolUseOutcome['decision'] {
  if (behaviors.some((behavior) => behavior === 'deny' || behavior === 'stop' || behavior === 'throw')) return 'deny';
  if (behaviors.some((behavior) => behavior === 'ask' || behavior === 'defer')) return 'ask';
  if (behaviors.some((behavior) => behavior === 'throw-open' || behavior === 'garbage-open')) return undefined;
  if (behaviors.some((behavior) => behavior === 'allow' || behavior === 'allow-rewrite')) return 'allow';
  return undefined;
}

describe('PreToolUse aggregation under fault injection', () => {
  it('takes the most restrictive decision, never allows past a failed or denying hook, and rewrites only from an allowing hook', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BEHAVIORS), { maxLength: 6 }), (behaviors) => {
        const gate = createHookGate({ projectDir: '/w', env: {}, functionHooks: behaviors.map(hookFor) });
        const outcome = gate.preToolUse(subject, new AbortController().signal) as PreToolUseOutcome;
        expect(outcome.decision).toBe(expected(behaviors));
        if (outcome.updatedInput !== undefined) {
          expect(outcome.decision).toBe('allow');
          const command = (outcome.updatedInput as { command: string }).command;
          expect(command).toBe(`h${behaviors.indexOf('allow-rewrite')}-allow-rewrite`);
        }
        const contexts = behaviors.flatMap((behavior, index) => (behavior === 'context' ? [`h${index}-context`] : []));
        expect(outcome.additionalContext ?? []).toEqual(contexts);
        expect(outcome.stopReason !== undefined).toBe(behaviors.includes('stop'));
      }),
      { numRuns: 500 },
    );
  });
});
