import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { ApprovalRequest } from '../contract/gates.js';
import type { HookMatcherConfig } from '../contract/hook-config.js';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import { createSessionStore } from '../loop/session-store.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { scriptedModel, textTurn, toolTurn } from '../testing/scripted-model.js';
import { createAgentSession } from './create-agent-session.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-notification-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const ran: string[] = [];
/** A tool that changes things, so the default mode asks a person before it runs. */
const deploy = defineTool({
  name: 'Deploy',
  inputSchema: z.object({}),
  prompt: 'Deploys.',
  call: async () => {
    ran.push('deploy');
    return 'deployed';
  },
});

async function script(name: string, body: string): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `#!/bin/bash\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** A session whose Notification hooks record their input: one for permission prompts, one for idle prompts. */
async function session(warnings: string[]) {
  const seen = join(root, 'seen.json');
  const group = (matcher: string, command: string): HookMatcherConfig => ({
    matcher,
    hooks: [{ type: 'command', command }],
    source: 'userSettings',
    file: '/home/me/.claude/settings.json',
  });
  const modes = createPermissionModeStore('default');
  return {
    seen,
    session: await createAgentSession({
      provider: scriptedModel([toolTurn([{ name: 'Deploy', id: 'toolu_1', input: {} }]), textTurn('done')]),
      system: 'You are a test.',
      cwd: root,
      sessions: createSessionStore({ configDir: join(root, '.toolplane'), cwd: root }),
      tools: [deploy],
      permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root }),
      modes,
      hooks: new Map([
        [
          'Notification',
          [
            group('permission_prompt', await script('told.sh', `cat > ${seen}`)),
            group('idle_prompt', await script('idle.sh', `touch ${join(root, 'idle-ran')}`)),
          ],
        ],
      ]),
      env: { PATH: process.env['PATH'] },
      homeDir: root,
      warn: (line) => warnings.push(line),
    }),
  };
}

async function drain(generator: AsyncGenerator<unknown, unknown>): Promise<void> {
  while (!(await generator.next()).done);
}

describe('Notification hooks of a session', () => {
  it('hear of each question the approver puts to a person, with the tool named', async () => {
    const warnings: string[] = [];
    const { session: agent, seen } = await session(warnings);
    const asked: ApprovalRequest[] = [];
    agent.setApprover({
      request: async (request) => {
        asked.push(request);
        return { behavior: 'allow' };
      },
    });
    ran.length = 0;
    await drain(agent.submit('deploy it', new AbortController().signal));
    expect(asked.map((request) => request.tool.name)).toEqual(['Deploy']);
    expect(ran).toEqual(['deploy']);
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'toolplane needs your permission to use Deploy',
      title: 'Permission needed',
      session_id: agent.id(),
    });
    expect(existsSync(join(root, 'idle-ran'))).toBe(false);
    // The hook whose matcher toolplane can never satisfy is told at start, by name and file.
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: \/home\/me\/\.claude\/settings\.json: Notification hook ".*idle\.sh" never runs: its matcher "idle_prompt"/,
      ),
    );
    await agent.close();
  });

  it('are not told when no one is asked (no approver: the call is denied)', async () => {
    const { session: agent, seen } = await session([]);
    ran.length = 0;
    await drain(agent.submit('deploy it', new AbortController().signal));
    expect(ran).toEqual([]);
    expect(existsSync(seen)).toBe(false);
    await agent.close();
  });
});
