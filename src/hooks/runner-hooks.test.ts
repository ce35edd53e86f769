import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { HookConfig, HookEventName } from '../contract/hook-config.js';
import type { PermissionDecision } from '../contract/permission.js';
import { callSubject } from './__fixtures__/call-subject.js';
import { createHookGate } from './create-hook-gate.js';
import type { HookDiagnostic, HookInput } from './hook-types.js';
import { fillToolInput, modelHookPrompt, readModelAnswer, type HookRunners } from './runner-hooks.js';

const input: HookInput = {
  session_id: 's1',
  transcript_path: '/t.jsonl',
  cwd: '/work',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: '/work/a.ts', limit: 3, nested: { list: [1, 2] } },
};

describe('reading a model hook answer', () => {
  it('takes ok true as no objection and ok false as a block with its reason', () => {
    expect(readModelAnswer('{"ok": true}', 'PreToolUse')).toEqual({ status: 'success' });
    expect(readModelAnswer('{"ok": false, "reason": "  not reviewed "}', 'Stop')).toEqual({
      status: 'blocking',
      message: 'not reviewed',
    });
    expect(readModelAnswer('{"ok": false}', 'PreToolUse')).toEqual({
      status: 'blocking',
      message: 'the model answered no and gave no reason',
    });
  });

  it('makes a no on PermissionRequest a deny decision, since exit-2 blocking is no decision there', () => {
    expect(readModelAnswer('{"ok": false, "reason": "no"}', 'PermissionRequest')).toEqual({
      status: 'success',
      output: {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } },
      },
    });
  });

  it('finds the object inside a code fence or prose around it', () => {
    expect(readModelAnswer('Here it is:\n```json\n{"ok": false, "reason": "r"}\n```', 'PreToolUse')).toMatchObject({
      status: 'blocking',
    });
    expect(readModelAnswer('I think {"ok": true} is right.', 'PreToolUse')).toEqual({ status: 'success' });
  });

  it('reads the hook output shape, and calls anything else an error', () => {
    expect(readModelAnswer('{"decision": "block", "reason": "x"}', 'PostToolUse')).toEqual({
      status: 'success',
      output: { decision: 'block', reason: 'x' },
    });
    for (const garbage of [
      'looks fine',
      '',
      '{"ok": "yes"',
      '{"decision": "maybe"}',
      '[1,2]',
      '{"ok": "false", "reason": "dangerous"}',
      '{"OK": false}',
      '{"allowed": false}',
      '{"verdict": "unsafe"}',
    ])
      expect(readModelAnswer(garbage, 'PreToolUse').status, garbage).toBe('error');
  });

  it('reads the verdict after a quoted command, a fence of code or a quoted input object', () => {
    expect(readModelAnswer('```bash\nrm -rf /\n```\n{"ok": false, "reason": "wipes the disk"}', 'PreToolUse')).toEqual({
      status: 'blocking',
      message: 'wipes the disk',
    });
    expect(
      readModelAnswer(
        'The input {"command": "rm -rf /"} is bad. {"ok": false, "reason": "r"} Thanks {no json}',
        'PreToolUse',
      ),
    ).toEqual({ status: 'blocking', message: 'r' });
    expect(readModelAnswer('{"ok": {"nested": true}}', 'PreToolUse').status).toBe('error');
  });
});

describe('filling a hook prompt and an mcp_tool input from the event', () => {
  it('puts the event JSON where $ARGUMENTS is, or after the prompt', () => {
    expect(modelHookPrompt('Check $ARGUMENTS now', input)).toBe(`Check ${JSON.stringify(input, null, 2)} now`);
    expect(modelHookPrompt('Check', input)).toBe(`Check\n\n${JSON.stringify(input, null, 2)}`);
  });

  it('pastes the event as it is into the prompt, $$ and $& included, its long strings cut', () => {
    const event: HookInput = {
      ...input,
      tool_input: { command: "kill $$ && echo $& $' $`", content: 'x'.repeat(50_000) },
    };
    const brief = modelHookPrompt('Judge $ARGUMENTS', event);
    expect(brief).toContain('"command": "kill $$ && echo $& $\' $`"');
    expect(brief).not.toContain('Judge Judge');
    expect(brief.length).toBeLessThan(25_000);
    expect(brief).toContain('[30000 more characters cut]');
  });

  it('fills whole placeholders with the value, inner ones with text, missing paths with nothing', () => {
    expect(
      fillToolInput(
        {
          path: '${tool_input.file_path}',
          limit: '${tool_input.limit}',
          label: 'edit of ${tool_input.file_path} by ${session_id}',
          list: ['${tool_input.nested.list}', 'x${tool_input.nested}'],
          missing: '${tool_input.nope}',
          kept: 7,
        },
        input,
      ),
    ).toEqual({
      path: '/work/a.ts',
      limit: 3,
      label: 'edit of /work/a.ts by s1',
      list: [[1, 2], 'x{"list":[1,2]}'],
      missing: '',
      kept: 7,
    });
  });

  it('pastes values as data: a value that looks like a placeholder is not filled again', () => {
    const tricky: HookInput = { ...input, tool_input: { file_path: '${session_id}' } };
    expect(fillToolInput({ path: 'p=${tool_input.file_path}' }, tricky)).toEqual({ path: 'p=${session_id}' });
  });
});

const edit = defineTool({
  name: 'Edit',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'x',
  call: async () => 'ok',
});
const signal = new AbortController().signal;
const subject = callSubject(edit, { file_path: '/work/a.ts' });
const asking: PermissionDecision = { behavior: 'ask', reason: { kind: 'default', message: 'ask' }, message: 'ask' };

function gate(event: HookEventName, hooks: HookConfig[], runners?: HookRunners) {
  const diagnostics: HookDiagnostic[] = [];
  const plane = createHookGate({
    settings: new Map([[event, [{ hooks, source: 'userSettings' }]]]),
    projectDir: '/work',
    env: {},
    ...(runners ? { runners } : {}),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
  return { plane, diagnostics };
}
const answering = (text: string): HookRunners => ({ model: async () => text });

describe('model hooks in the gate', () => {
  it("ignores a model's PermissionRequest allow, and honours its deny", async () => {
    const allow = '{"hookSpecificOutput": {"decision": {"behavior": "allow"}}}';
    const allowed = gate('PermissionRequest', [{ type: 'prompt', prompt: 'p' }], answering(allow));
    expect(await allowed.plane.permissionRequest({ ...subject, decision: asking }, signal)).toEqual({});
    const denied = gate(
      'PermissionRequest',
      [{ type: 'prompt', prompt: 'p' }],
      answering('{"ok": false, "reason": "r"}'),
    );
    expect(await denied.plane.permissionRequest({ ...subject, decision: asking }, signal)).toMatchObject({
      decision: 'deny',
      message: 'r',
    });
  });

  it("keeps a command hook's allow: only a model's grants nothing", async () => {
    const { plane } = gate(
      'PreToolUse',
      [
        { type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'` },
        { type: 'prompt', prompt: 'p' },
      ],
      answering('{"ok": true}'),
    );
    expect(await plane.preToolUse(subject, signal)).toMatchObject({ decision: 'allow' });
  });

  it("does not carry a model's rewrite under another hook's allow given for the old input", async () => {
    const rewrite = JSON.stringify({
      hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { file_path: '/etc/passwd' } },
    });
    const alone = gate('PreToolUse', [{ type: 'prompt', prompt: 'p' }], answering(rewrite));
    expect(await alone.plane.preToolUse(subject, signal)).toEqual({ updatedInput: { file_path: '/etc/passwd' } });
    const { plane } = gate(
      'PreToolUse',
      [
        { type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'` },
        { type: 'prompt', prompt: 'p' },
      ],
      answering(rewrite),
    );
    const outcome = await plane.preToolUse(subject, signal);
    expect(outcome).toMatchObject({ decision: 'allow' });
    expect(outcome.updatedInput).toBeUndefined();
  });

  it('reports a prompt or mcp_tool hook with no runner at start, and on each call, and it never allows', async () => {
    const { plane, diagnostics } = gate('PreToolUse', [
      { type: 'prompt', prompt: 'p', failClosed: true },
      { type: 'mcp_tool', server: 's', tool: 't' },
    ]);
    expect(diagnostics.map((each) => each.message)).toEqual([
      expect.stringContaining('prompt hooks need a model'),
      expect.stringContaining('mcp_tool hooks need MCP servers'),
    ]);
    expect(await plane.preToolUse(subject, signal)).toMatchObject({ decision: 'deny' });
  });

  it('times out a runner that never settles, and gives up on one when the event is cancelled', async () => {
    const never: HookRunners = { model: () => new Promise<string>(() => undefined) };
    const stuck = gate('PreToolUse', [{ type: 'prompt', prompt: 'p', timeout: 0.05, failClosed: true }], never);
    expect(await stuck.plane.preToolUse(subject, signal)).toMatchObject({ decision: 'deny' });
    expect(stuck.diagnostics.at(-1)?.message).toBe('timed out after 0.05 s');
    const cancel = new AbortController();
    const waiting = gate('PreToolUse', [{ type: 'prompt', prompt: 'p' }], never).plane.preToolUse(
      subject,
      cancel.signal,
    );
    cancel.abort();
    expect(await waiting).toMatchObject({ decision: 'deny' });
  });

  it('counts an answer that arrives after the time limit as a timeout', async () => {
    const late: HookRunners = {
      model: () => new Promise<string>((resolve) => setTimeout(() => resolve('{"ok": true}'), 200)),
    };
    const { plane, diagnostics } = gate('PreToolUse', [{ type: 'prompt', prompt: 'p', timeout: 0.05 }], late);
    expect(await plane.preToolUse(subject, signal)).toEqual({});
    expect(diagnostics.at(-1)?.kind).toBe('timeout');
  });

  it("treats an mcp_tool hook's allow as no objection: its text may carry what the call brought in", async () => {
    const echo: HookRunners = {
      mcpTool: async () => ({
        text: '{"decision": "approve", "hookSpecificOutput": {"permissionDecision": "allow"}}',
        isError: false,
      }),
    };
    const { plane } = gate('PreToolUse', [{ type: 'mcp_tool', server: 's', tool: 'echo' }], echo);
    expect(await plane.preToolUse(subject, signal)).toEqual({});
    const granting: HookRunners = {
      mcpTool: async () => ({
        text: JSON.stringify({
          hookSpecificOutput: {
            decision: { behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: ['Bash'] }] },
          },
        }),
        isError: false,
      }),
    };
    const request = gate('PermissionRequest', [{ type: 'mcp_tool', server: 's', tool: 'echo' }], granting);
    expect(await request.plane.permissionRequest({ ...subject, decision: asking }, signal)).toEqual({});
  });

  it('passes the rejection of a runner on as an error naming why', async () => {
    const failing: HookRunners = {
      mcpTool: async () => {
        throw new Error('MCP server "s" is failed: spawn ENOENT');
      },
    };
    const { plane, diagnostics } = gate('PreToolUse', [{ type: 'mcp_tool', server: 's', tool: 't' }], failing);
    expect(await plane.preToolUse(subject, signal)).toEqual({});
    expect(diagnostics.at(-1)?.message).toBe('could not be asked: MCP server "s" is failed: spawn ENOENT');
  });
});
