import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import type { PermissionMode } from '../contract/permission.js';
import type { Message } from '../messages/types.js';
import { createSessionStore } from '../loop/session-store.js';
import type { LoopEvent, QueryResult } from '../loop/types.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { textTurn, toolTurn, scriptedModel } from '../testing/scripted-model.js';
import { fileStateService } from '../tools/file-state/file-state-store.js';
import { PLAN_MODE_CONTROLLER } from '../tools/plan-mode/plan-mode-controller.js';
import { createAgentSession } from './create-agent-session.js';
import type { AgentSession, AgentSessionOptions } from './types.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-session-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A tool that reports the permission mode its call saw. */
const seenModes: PermissionMode[] = [];
const modeProbe = defineTool({
  name: 'ModeProbe',
  inputSchema: z.object({}),
  prompt: 'Reports the mode.',
  isReadOnly: () => true,
  call: async (_input, context) => {
    seenModes.push(context.permissionMode);
    return `mode ${context.permissionMode}`;
  },
});

function setUp(turns: Parameters<typeof scriptedModel>[0], extra: Partial<AgentSessionOptions> = {}) {
  const modes = createPermissionModeStore('default');
  const permissions = createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root });
  const options: AgentSessionOptions = {
    provider: scriptedModel(turns),
    system: 'You are a test.',
    cwd: root,
    sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
    tools: [modeProbe],
    permissions,
    modes,
    env: { PATH: process.env['PATH'] },
    homeDir: root,
    ...extra,
  };
  return { options, permissions, modes };
}

async function drain(generator: AsyncGenerator<LoopEvent, QueryResult>): Promise<QueryResult> {
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

const prompt = (session: AgentSession, text: string) => drain(session.submit(text, new AbortController().signal));

describe('createAgentSession', () => {
  it('runs prompts, records them, and resumes the same conversation whole', async () => {
    const { options } = setUp([toolTurn([{ name: 'ModeProbe', id: 'toolu_1', input: {} }]), textTurn('done')]);
    const session = await createAgentSession(options);
    const result = await prompt(session, 'probe');
    expect(result.status).toBe('success');
    const id = session.id();
    expect(session.messages()).toHaveLength(4);
    await session.clear();
    expect(session.id()).not.toBe(id);
    expect(session.messages()).toEqual([]);
    await session.resume(id);
    expect(session.id()).toBe(id);
    expect(session.messages().map((message: Message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    await session.close();
  });

  it('replaces the read-file state with the conversation on clear and resume', async () => {
    const { options } = setUp([]);
    const session = await createAgentSession(options);
    const first = session.services.get(fileStateService)!;
    const id = session.id();
    await session.clear();
    const second = session.services.get(fileStateService)!;
    expect(second).not.toBe(first);
    await session.resume(id);
    expect(session.services.get(fileStateService)).not.toBe(second);
    await session.close();
  });

  it('keeps one mode: plan mode, the permission engine and each call read the same store', async () => {
    seenModes.length = 0;
    const { options, permissions, modes } = setUp([toolTurn([{ name: 'ModeProbe', input: {} }]), textTurn('ok')]);
    const session = await createAgentSession(options);
    session.services.get(PLAN_MODE_CONTROLLER)!.enter();
    expect(modes.get()).toBe('plan');
    expect(permissions.mode).toBe('plan');
    await prompt(session, 'probe');
    expect(seenModes).toEqual(['plan']);
    permissions.setMode('acceptEdits');
    expect(session.services.get(PLAN_MODE_CONTROLLER)!.mode()).toBe('acceptEdits');
    await session.close();
  });

  it('wires the lifecycle hooks once: SessionStart context reaches the next prompt, UserPromptSubmit can block, SessionEnd runs at close', async () => {
    const events: string[] = [];
    const { options } = setUp([textTurn('hello')], {
      functionHooks: [
        {
          event: 'SessionStart',
          name: 'start',
          callback: (input) => (
            events.push(`start:${String(input.source)}`),
            { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'from start' } }
          ),
        },
        {
          event: 'UserPromptSubmit',
          name: 'gate',
          callback: (input) => (input.prompt === 'forbidden' ? { decision: 'block', reason: 'not that' } : undefined),
        },
        { event: 'Stop', name: 'stop', callback: () => void events.push('stop') },
        { event: 'SessionEnd', name: 'end', callback: () => void events.push('end') },
      ],
    });
    const session = await createAgentSession(options);
    const blocked = await prompt(session, 'forbidden');
    expect(blocked.status).toBe('error_during_execution');
    expect(session.messages()).toEqual([]);
    await prompt(session, 'hi');
    const first = session.messages()[0]!;
    expect(JSON.stringify(first.content)).toContain('from start');
    await session.clear();
    await session.close();
    expect(events).toEqual(['start:startup', 'stop', 'start:clear', 'end']);
  });

  it("gives command hooks the session's environment, never the process's", async () => {
    const out = join(root, 'hook-env.txt');
    const { options } = setUp([], {
      env: { PATH: process.env['PATH'], SESSION_MARKER: 'from-session' },
      hooks: new Map([
        [
          'SessionStart',
          [
            {
              source: 'projectSettings',
              hooks: [{ type: 'command', command: `printf '%s|%s' "$SESSION_MARKER" "\${HOME:-unset}" > '${out}'` }],
            },
          ],
        ],
      ]),
    });
    expect(process.env['HOME']).toBeDefined();
    const session = await createAgentSession(options);
    await session.close();
    expect(await readFile(out, 'utf8')).toBe('from-session|unset');
  });

  it('refuses to resume a session that does not exist', async () => {
    const { options } = setUp([]);
    await expect(createAgentSession({ ...options, resume: 'nope' })).rejects.toThrow(/No session nope/);
  });
});
