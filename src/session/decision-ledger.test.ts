import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import { createSessionStore } from '../loop/session-store.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { scriptedModel, textTurn, toolTurn } from '../testing/scripted-model.js';
import { createAgentSession } from './create-agent-session.js';
import type { LedgerEntry } from './decision-ledger.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-ledger-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const tool = (name: string, readOnly: boolean) =>
  defineTool({
    name,
    inputSchema: z.object({ text: z.string() }),
    prompt: `The ${name} tool.`,
    isReadOnly: () => readOnly,
    call: async (input) => `${name} saw ${input.text}`,
  });

/** Every call's path as the session's transcript recorded it. */
async function ledgerOf(path: string): Promise<LedgerEntry[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  return lines
    .map((line) => JSON.parse(line) as { type: string; event?: LedgerEntry })
    .flatMap((line) => (line.type === 'event' && line.event?.type === 'tool-decision' ? [line.event] : []));
}

describe('the decision ledger', () => {
  it("records each call's gate, reason, hooks, batch, times and result size in the transcript", async () => {
    const modes = createPermissionModeStore('default');
    const permissions = createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root });
    const session = await createAgentSession({
      provider: scriptedModel([
        toolTurn([
          { name: 'Look', id: 'look', input: { text: 'a' } },
          { name: 'Look', id: 'look2', input: { text: 'b' } },
          { name: 'Write', id: 'write', input: { text: 'c' } },
          { name: 'Shell', id: 'shell', input: { text: 'rm' } },
          { name: 'Nope', id: 'nope', input: {} },
        ]),
        textTurn('done'),
      ]),
      system: 'test',
      cwd: root,
      sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
      tools: [tool('Look', true), tool('Write', false), tool('Shell', false)],
      permissions,
      modes,
      env: {},
      homeDir: root,
      functionHooks: [
        {
          event: 'PreToolUse',
          matcher: 'Shell',
          name: 'no-rm',
          callback: () => ({
            hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm here' },
          }),
        },
      ],
    });
    for await (const _ of session.submit('go', new AbortController().signal));
    await session.close();
    const ledger = await ledgerOf(session.transcript().path);
    const byId = new Map(ledger.map((entry) => [entry.toolUseId, entry]));
    expect([...byId.keys()].sort()).toEqual(['look', 'look2', 'nope', 'shell', 'write']);

    const look = byId.get('look')!;
    expect(look).toMatchObject({
      tool: 'Look',
      status: 'success',
      asked: false,
      result: { chars: 10, isError: false },
    });
    expect(look.decision?.behavior).toBe('allow');
    // Each started call names its batch (calls of one batch ran side by side).
    expect(typeof look.batch).toBe('number');
    expect(look.startedAt).toBeGreaterThanOrEqual(look.queuedAt!);
    expect(look.endedAt).toBeGreaterThanOrEqual(look.startedAt!);

    // Not read-only, no rule allows it, and no one to ask: denied, and the ledger says why.
    expect(byId.get('write')).toMatchObject({
      status: 'denied',
      decision: { behavior: 'ask', reason: { kind: 'default' } },
      deniedBy: { kind: 'no-approver' },
      asked: false,
      result: { isError: true },
    });
    expect(byId.get('shell')).toMatchObject({
      status: 'hook-blocked',
      message: 'no rm here',
      hooks: [{ event: 'PreToolUse', hook: 'no-rm', status: 'success', said: 'deny' }],
    });
    expect(byId.get('nope')).toMatchObject({ tool: 'Nope', status: 'unknown-tool' });
  });

  it('leaves the history untouched: a transcript with ledger lines resumes whole, as one without them', async () => {
    const modes = createPermissionModeStore('default');
    const sessions = createSessionStore({ configDir: join(root, '.toolplane'), cwd: root });
    const options = {
      system: 'test',
      cwd: root,
      sessions,
      tools: [tool('Look', true)],
      permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root }),
      modes,
      env: {},
      homeDir: root,
    };
    const first = await createAgentSession({
      ...options,
      provider: scriptedModel([toolTurn([{ name: 'Look', id: 'l', input: { text: 'x' } }]), textTurn('ok')]),
    });
    for await (const _ of first.submit('go', new AbortController().signal));
    await first.close();
    expect(await ledgerOf(first.transcript().path)).toHaveLength(1);
    const loaded = await sessions.load(first.id());
    expect(loaded.skippedLines).toEqual([]);
    expect(loaded.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
