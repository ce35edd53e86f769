import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { PermissionGate } from '../contract/gates.js';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { createServices, defineService } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import { createSessionStore } from '../loop/session-store.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { textTurn, toolTurn, scriptedModel } from '../testing/scripted-model.js';
import { createGrepTool } from '../tools/grep/grep-tool.js';
import { READ_DENIED_PATH } from '../tools/fs-helpers/read-denied-path.js';
import { createAgentSession } from './create-agent-session.js';
import type { AgentSessionOptions } from './types.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-start-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const CLOCK = defineService<{ now(): string }>('clock');
const clockTool = defineTool({
  name: 'Clock',
  inputSchema: z.object({}),
  prompt: 'Tells the time.',
  services: [CLOCK],
  isReadOnly: () => true,
  call: async (_input, context) => context.services.get(CLOCK)!.now(),
});
const writeReport = defineTool({
  name: 'WriteReport',
  inputSchema: z.object({ path: z.string() }),
  prompt: 'Writes a report.',
  paths: [{ field: 'path', access: 'write' }],
  call: async () => 'written',
});

function options(extra: Partial<AgentSessionOptions> & { readonly tools: readonly AnyTool[] }): AgentSessionOptions {
  const modes = createPermissionModeStore('default');
  return {
    provider: scriptedModel([textTurn('ok')]),
    system: 'You are a test.',
    cwd: root,
    env: {},
    homeDir: root,
    sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
    permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root }),
    modes,
    ...extra,
  };
}

describe('a session at start', () => {
  it('refuses a tool whose declared service is missing, naming the tool and the service', async () => {
    await expect(createAgentSession(options({ tools: [clockTool] }))).rejects.toMatchObject({
      code: 'MISSING_SERVICE',
      message: expect.stringContaining('Clock needs the service "clock"'),
    });
  });

  it('runs the tool once the host registers the service', async () => {
    const services = createServices().set(CLOCK, { now: () => 'noon' });
    const session = await createAgentSession({
      ...options({ tools: [clockTool], services }),
      provider: scriptedModel([toolTurn([{ name: 'Clock', id: 'toolu_1', input: {} }]), textTurn('done')]),
    });
    for await (const _event of session.submit('time?', new AbortController().signal));
    expect(JSON.stringify(session.messages())).toContain('noon');
    await session.close();
  });

  it('needs the Read-deny filter for the built-in Grep, which the permission engine provides', async () => {
    const engine = createPermissionEngine({ rules: [], cwd: root, homeDir: root });
    const gate: PermissionGate = {
      preCheck: (subject) => engine.preCheck(subject),
      decide: (subject) => engine.decide(subject),
    };
    await expect(createAgentSession(options({ tools: [createGrepTool()], permissions: gate }))).rejects.toMatchObject({
      code: 'MISSING_SERVICE',
      message: expect.stringContaining('Grep needs the service "read-denied-path"'),
    });
    const session = await createAgentSession(options({ tools: [createGrepTool()] }));
    expect(session.services.get(READ_DENIED_PATH)).toBeTypeOf('function');
    await session.close();
  });

  it('reports the permission rules problems once, and knows the tools that declare paths', async () => {
    const entry = (behavior: PermissionRuleEntry['behavior'], rule: string): PermissionRuleEntry => ({
      rule,
      behavior,
      source: 'projectSettings',
      file: join(root, '.toolplane', 'settings.json'),
      root,
    });
    const modes = createPermissionModeStore('default');
    const permissions = createPermissionEngine({
      rules: [
        entry('deny', 'Nonexistent'),
        entry('allow', 'WriteReport(./reports/**)'),
        entry('deny', 'Clock(./x)'),
        entry('ask', 'WebFetch(example.com)'),
        entry('deny', 'mcp__github__delete_repo'),
      ],
      modeStore: modes,
      cwd: root,
      homeDir: root,
    });
    const lines: string[] = [];
    const session = await createAgentSession({
      ...options({ tools: [writeReport, clockTool], services: createServices().set(CLOCK, { now: () => '' }) }),
      permissions,
      modes,
      warn: (line) => lines.push(line),
    });
    expect(session.ruleProblems.map((problem) => problem.rule).sort()).toEqual([
      'Clock(./x)',
      'Nonexistent',
      'WebFetch(example.com)',
      'mcp__github__delete_repo',
    ]);
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.includes('Clock(./x)'))).toMatch(/covers every Clock call/);
    expect(lines.find((line) => line.includes('Nonexistent'))).toContain(
      `${join(root, '.toolplane', 'settings.json')}: deny rule Nonexistent names Nonexistent, which is not a known tool`,
    );
    await session.close();
  });
});
