import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import type { ToolCallRecord } from '../execution/types.js';
import { createSessionStore } from '../loop/session-store.js';
import type { LoopEvent } from '../loop/types.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createAgentSession } from './create-agent-session.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-host-call-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const ran: string[] = [];
const echo = defineTool({
  name: 'Echo',
  inputSchema: z.object({ text: z.string() }),
  prompt: 'Echoes.',
  call: async (input) => {
    ran.push(input.text);
    return `echo ${input.text}`;
  },
});

async function sessionWith(rules: { behavior: 'allow' | 'deny'; rule: string }[]) {
  const modes = createPermissionModeStore('default');
  const permissions = createPermissionEngine({
    rules: rules.map((rule) => ({ ...rule, source: 'userSettings' as const, root })),
    modeStore: modes,
    cwd: root,
    homeDir: root,
  });
  return createAgentSession({
    provider: scriptedModel([]),
    system: 'test',
    cwd: root,
    sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
    tools: [echo],
    permissions,
    modes,
    env: {},
    homeDir: root,
  });
}

async function collect(generator: AsyncGenerator<LoopEvent, ToolCallRecord>) {
  const events: LoopEvent[] = [];
  for (;;) {
    const step = await generator.next();
    if (step.done) return { events, record: step.value };
    events.push(step.value);
  }
}

describe('AgentSession.runToolCall', () => {
  it('runs an allowed call through the plane, records it in the ledger and keeps it out of the conversation', async () => {
    ran.length = 0;
    const session = await sessionWith([{ behavior: 'allow', rule: 'Echo' }]);
    const { events, record } = await collect(
      session.runToolCall({ name: 'Echo', input: { text: 'hi' } }, new AbortController().signal),
    );
    expect(record.outcome).toEqual({ status: 'success', isError: false });
    expect(ran).toEqual(['hi']);
    expect(events.map((event) => event.type)).toContain('tool-call-end');
    expect(session.messages()).toEqual([]);
    await session.close();
    const transcript = await readFile(session.transcript().path, 'utf8');
    expect(transcript).toContain('"tool-decision"');
  });

  it('refuses a call of a tool a deny rule removed, and one that would ask when no one can answer, without running either', async () => {
    ran.length = 0;
    const denied = await sessionWith([{ behavior: 'deny', rule: 'Echo' }]);
    const byRule = await collect(
      denied.runToolCall({ name: 'Echo', input: { text: 'x' } }, new AbortController().signal),
    );
    // A tool denied by its bare name is not in the pool at all: the call cannot reach it.
    expect(byRule.record.outcome).toEqual({ status: 'unknown-tool' });
    const asking = await sessionWith([]);
    const noOne = await collect(
      asking.runToolCall({ name: 'Echo', input: { text: 'y' } }, new AbortController().signal),
    );
    expect(noOne.record.outcome).toMatchObject({ status: 'denied' });
    expect(ran).toEqual([]);
    await denied.close();
    await asking.close();
  });
});
