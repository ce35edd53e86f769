import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { CallSubject } from '../contract/gates.js';
import { createServices } from '../contract/services.js';
import { createHookGate } from './create-hook-gate.js';
import type { FunctionHook, HookDiagnostic, HookInput } from './hook-types.js';

const bash = defineTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'Runs a command.',
  call: () => Promise.resolve('ok'),
});

const subject: CallSubject = {
  tool: bash,
  input: { command: 'ls' },
  toolUseId: 'toolu_9',
  context: {
    toolUseId: 'toolu_9',
    signal: new AbortController().signal,
    cwd: '/work/project',
    sessionId: 's',
    agentId: 'agent-7',
    permissionMode: 'acceptEdits',
    services: createServices(),
  },
};
const signal = new AbortController().signal;

function plane(functionHooks: FunctionHook[], diagnostics: HookDiagnostic[] = []) {
  return createHookGate({
    functionHooks,
    projectDir: '/work/project',
    env: {},
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
}

describe('function hooks', () => {
  it('receive the same input as command hooks and answer synchronously when they are synchronous', () => {
    const seen: HookInput[] = [];
    const outcome = plane([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        name: 'rewrite',
        callback: (input) => {
          seen.push(input);
          return { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls -la' } } };
        },
      },
      { event: 'PreToolUse', matcher: 'Edit', name: 'never', callback: () => ({ decision: 'block' }) },
    ]).preToolUse(subject, signal);
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toEqual({
      decision: 'allow',
      hook: 'rewrite',
      reason: 'allow by PreToolUse hook rewrite',
      updatedInput: { command: 'ls -la' },
    });
    expect(seen).toEqual([
      {
        session_id: 's',
        transcript_path: '',
        cwd: '/work/project',
        permission_mode: 'acceptEdits',
        hook_event_name: 'PreToolUse',
        agent_id: 'agent-7',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'toolu_9',
      },
    ]);
  });

  it('returns the shared empty outcome when nothing is configured or nothing matches', () => {
    expect(plane([]).preToolUse(subject, signal)).toEqual({});
    expect(plane([{ event: 'PostToolUse', name: 'x', callback: () => undefined }]).preToolUse(subject, signal)).toEqual(
      {},
    );
  });

  it('fail closed by default when they throw', () => {
    const diagnostics: HookDiagnostic[] = [];
    const outcome = plane(
      [
        {
          event: 'PreToolUse',
          name: 'broken',
          callback: () => {
            throw new Error('bug');
          },
        },
        { event: 'PreToolUse', name: 'ok', callback: () => ({ hookSpecificOutput: { permissionDecision: 'allow' } }) },
      ],
      diagnostics,
    ).preToolUse(subject, signal);
    expect(outcome).toMatchObject({
      decision: 'deny',
      hook: 'broken',
      reason: expect.stringContaining('threw: bug') as string,
    });
    expect(diagnostics).toEqual([expect.objectContaining({ hook: 'broken', kind: 'error' })]);
  });

  it("when not fail-closed, a throw is reported and voids the other hooks' allow", () => {
    const outcome = plane([
      {
        event: 'PreToolUse',
        name: 'broken',
        failClosed: false,
        callback: () => {
          throw new Error('bug');
        },
      },
      {
        event: 'PreToolUse',
        name: 'ok',
        callback: () => ({ hookSpecificOutput: { permissionDecision: 'allow', additionalContext: 'noted' } }),
      },
    ]).preToolUse(subject, signal);
    expect(outcome).toEqual({ additionalContext: ['noted'] });
  });

  it('deny when an asynchronous callback times out, as the reference SDK does', async () => {
    const outcome = await plane([
      { event: 'PreToolUse', name: 'slow', timeoutMs: 20, callback: () => new Promise(() => undefined) },
    ]).preToolUse(subject, signal);
    expect(outcome).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('timed out after 20 ms') as string,
    });
  });

  it('answer asynchronously, and report a value that is not an output object', async () => {
    const diagnostics: HookDiagnostic[] = [];
    const outcome = await plane(
      [
        {
          event: 'PreToolUse',
          name: 'async',
          callback: () => Promise.resolve({ hookSpecificOutput: { permissionDecision: 'ask' as const } }),
        },
        { event: 'PreToolUse', name: 'odd', failClosed: false, callback: () => 'yes' as never },
      ],
      diagnostics,
    ).preToolUse(subject, signal);
    expect(outcome).toMatchObject({ decision: 'ask', hook: 'async' });
    expect(diagnostics[0]?.message).toBe('returned string, not a hook output object');
  });

  it('are cancelled by the signal', async () => {
    const controller = new AbortController();
    const pending = plane([
      { event: 'PreToolUse', name: 'slow', callback: () => new Promise(() => undefined) },
    ]).preToolUse(subject, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ decision: 'deny' });
    const already = await plane([
      { event: 'PreToolUse', name: 'slow', callback: () => new Promise(() => undefined) },
    ]).preToolUse(subject, controller.signal);
    expect(already).toMatchObject({ decision: 'deny' });
  });

  it('rejected promises count as throws', async () => {
    const outcome = await plane([
      { event: 'PreToolUse', name: 'reject', callback: () => Promise.reject(new Error('nope')) },
    ]).preToolUse(subject, signal);
    expect(outcome).toMatchObject({ decision: 'deny', reason: expect.stringContaining('threw: nope') as string });
  });
});
