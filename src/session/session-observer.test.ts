import { mkdtemp, rm } from 'node:fs/promises';
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
import type { SessionObserver } from './session-observer.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-observer-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const look = defineTool({
  name: 'Look',
  inputSchema: z.object({ text: z.string() }),
  prompt: 'The Look tool.',
  isReadOnly: () => true,
  call: async (input) => `saw ${input.text}`,
});

async function sessionWith(observer: SessionObserver, warnings: string[]) {
  const modes = createPermissionModeStore('default');
  return createAgentSession({
    provider: scriptedModel([
      toolTurn([{ name: 'Look', id: 'look-1', input: { text: 'a' } }]),
      textTurn('first done'),
      textTurn('second done'),
    ]),
    system: 'test',
    cwd: root,
    sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
    tools: [look],
    permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root }),
    modes,
    env: {},
    homeDir: root,
    observer,
    warn: (line) => warnings.push(line),
  });
}

describe('the session observer', () => {
  it('sees each turn start and end, the loop events and the ledger entries of its calls', async () => {
    const seen: string[] = [];
    const session = await sessionWith(
      {
        turnStart: (turn) => seen.push(`start ${turn.prompt} ${turn.provider}`),
        event: (event) => (event.type === 'tool-call-end' ? seen.push(`end ${event.record.toolUseId}`) : undefined),
        calls: (entries) =>
          seen.push(`calls ${entries.map((entry) => `${entry.toolUseId}:${entry.status}`).join(',')}`),
        turnEnd: (turn) => seen.push(`turn-end ${turn.result?.status ?? 'none'} ${turn.sessionId === session.id()}`),
      },
      [],
    );
    for await (const _ of session.submit('go', new AbortController().signal));
    expect(seen).toEqual(['start go scripted', 'end look-1', 'calls look-1:success', 'turn-end success true']);
    await session.close();
  });

  it('a callback that throws is reported once and turned off; the turns go on unharmed', async () => {
    const warnings: string[] = [];
    let ends = 0;
    const session = await sessionWith(
      {
        turnStart: () => {
          throw new Error('observer broke');
        },
        turnEnd: () => void (ends += 1),
      },
      warnings,
    );
    const texts: string[] = [];
    for (const prompt of ['one', 'two']) {
      const turn = session.submit(prompt, new AbortController().signal);
      for (;;) {
        const next = await turn.next();
        if (next.done) {
          texts.push(next.value.status);
          break;
        }
      }
    }
    expect(texts).toEqual(['success', 'success']);
    expect(warnings.filter((line) => line.includes('observer broke'))).toHaveLength(1);
    expect(warnings[0]).toMatch(/turnStart failed and is off/);
    expect(ends).toBe(2);
    await session.close();
  });
});
