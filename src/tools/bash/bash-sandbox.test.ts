import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallApproval } from '../../contract/permission.js';
import { SANDBOX, type Sandbox } from '../../contract/sandbox.js';
import { createServices } from '../../contract/services.js';
import { createCallContext } from '../../testing/call-context.js';
import { createFakeSandbox } from '../../testing/fake-sandbox.js';
import { createTaskRegistry, TASK_REGISTRY } from '../tasks/task-registry.js';
import { asSent } from '../../testing/as-sent.js';
import { bashInputSchema, createBashTool, type BashInput } from './bash-tool.js';
import { SPILL_FOLDER, createSpillFolder } from './spill-folder.js';

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolplane-bash-sandbox-')));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const tool = createBashTool({ env: process.env, killGraceMs: 200 });

function contextWith(sandbox: Sandbox | undefined, approval: CallApproval | undefined) {
  const services = createServices().set(SPILL_FOLDER, createSpillFolder({ path: path.join(root, 'spill') }));
  if (sandbox) services.set(SANDBOX, sandbox);
  return createCallContext({ services, cwd: root, ...(approval ? { approval } : {}) });
}

async function run(input: BashInput, sandbox: Sandbox | undefined, approval: CallApproval | undefined) {
  const context = contextWith(sandbox, approval);
  const output = await tool.call(bashInputSchema.parse(input), context);
  return { output, mapped: asSent(tool.mapResult(output, context.toolUseId)) };
}

describe('Bash and the sandbox seam', () => {
  it('runs a command judged read-only in the read-only profile, anything else in the workspace profile', async () => {
    const cases: readonly [CallApproval | undefined, string][] = [
      [{ by: 'read-only', readOnly: true }, 'read-only'],
      [{ by: 'rule', readOnly: true }, 'read-only'],
      [{ by: 'mode', readOnly: true }, 'read-only'],
      [{ by: 'rule', readOnly: false }, 'workspace'],
      [{ by: 'hook', readOnly: false }, 'workspace'],
      [{ by: 'person', readOnly: true }, 'workspace'],
      [undefined, 'workspace'],
    ];
    for (const [approval, profile] of cases) {
      const sandbox = createFakeSandbox();
      const { mapped } = await run({ command: 'echo ran' }, sandbox, approval);
      expect(mapped.content).toBe('ran');
      expect(sandbox.requests.map((request) => request.profile)).toEqual([profile]);
      expect(sandbox.requests[0]?.cwd).toBe(root);
      expect(sandbox.released()).toBe(1);
    }
  });

  it('runs outside the sandbox only when a person approved that one run', async () => {
    const byPerson = createFakeSandbox();
    const outside = await run({ command: 'echo out', dangerouslyDisableSandbox: true }, byPerson, {
      by: 'person',
      readOnly: false,
    });
    expect(byPerson.requests).toHaveLength(0);
    expect(outside.mapped.content).toContain('ran outside the sandbox, as the user approved');

    for (const by of ['rule', 'mode', 'hook', 'tool', 'read-only'] as const) {
      const sandbox = createFakeSandbox();
      const { mapped } = await run({ command: 'echo in', dangerouslyDisableSandbox: true }, sandbox, {
        by,
        readOnly: false,
      });
      expect(mapped.isError).toBe(true);
      expect(mapped.content).toContain("only a person's approval of this one run allows that");
      expect(sandbox.requests).toHaveLength(0);
    }
  });

  it('asks (a safety ask no rule or mode answers) for dangerouslyDisableSandbox and excluded commands, and denies when the settings forbid it', async () => {
    const asked = await tool.checkPermissions(
      bashInputSchema.parse({ command: 'ls', dangerouslyDisableSandbox: true }),
      contextWith(createFakeSandbox(), undefined),
    );
    expect(asked).toMatchObject({ behavior: 'ask', reason: { kind: 'safety' } });
    expect(asked.behavior === 'ask' && asked.message).toContain('OUTSIDE the sandbox');

    const excluded = createFakeSandbox({
      outside: ({ command }) => (command.startsWith('docker ') ? { verdict: 'ask', reason: 'excluded' } : undefined),
    });
    expect(
      await tool.checkPermissions(bashInputSchema.parse({ command: 'docker ps' }), contextWith(excluded, undefined)),
    ).toMatchObject({ behavior: 'ask' });
    expect(
      await tool.checkPermissions(bashInputSchema.parse({ command: 'ls' }), contextWith(excluded, undefined)),
    ).toEqual({ behavior: 'passthrough' });

    const forbidden = createFakeSandbox({
      outside: () => ({ verdict: 'refuse', reason: 'sandbox.allowUnsandboxedCommands is false' }),
    });
    expect(
      await tool.checkPermissions(
        bashInputSchema.parse({ command: 'ls', dangerouslyDisableSandbox: true }),
        contextWith(forbidden, undefined),
      ),
    ).toMatchObject({
      behavior: 'deny',
    });
    expect(
      await tool.checkPermissions(bashInputSchema.parse({ command: 'ls' }), contextWith(undefined, undefined)),
    ).toEqual({ behavior: 'passthrough' });
  });

  it('ignores dangerouslyDisableSandbox when nothing asked for it to be honoured, and says so', async () => {
    const sandbox = createFakeSandbox({ outside: () => undefined });
    const { mapped } = await run({ command: 'echo in', dangerouslyDisableSandbox: true }, sandbox, {
      by: 'rule',
      readOnly: false,
    });
    expect(sandbox.requests).toHaveLength(1);
    expect(mapped.content).toContain('dangerouslyDisableSandbox was not honoured');
  });

  it('fails closed: a sandbox that cannot be prepared runs nothing', async () => {
    const marker = path.join(root, 'should-not-exist');
    const sandbox = createFakeSandbox({ prepareError: new Error('mount failed') });
    const { mapped } = await run({ command: `touch ${marker}` }, sandbox, { by: 'rule', readOnly: false });
    expect(mapped).toMatchObject({ isError: true });
    expect(mapped.content).toContain('The sandbox could not be prepared (mount failed)');
    await expect(realpath(marker)).rejects.toThrow();
  });

  it('runs unsandboxed where no sandbox can run and the settings allow it; refuses when only a person could approve', async () => {
    const missing = createFakeSandbox({
      status: { available: false, reason: 'bwrap missing', fix: 'install it' },
      outside: () => undefined,
    });
    expect((await run({ command: 'echo plain' }, missing, { by: 'rule', readOnly: false })).mapped.content).toBe(
      'plain',
    );
    expect(missing.requests).toHaveLength(0);

    const strict = createFakeSandbox({
      status: { available: false, reason: 'bwrap missing', fix: 'install it' },
      outside: () => ({ verdict: 'ask', reason: 'no sandbox can run here and sandbox.failIfUnavailable is set' }),
    });
    const refused = await run({ command: 'echo plain' }, strict, { by: 'hook', readOnly: false });
    expect(refused.mapped.isError).toBe(true);
    const approved = await run({ command: 'echo plain' }, strict, { by: 'person', readOnly: false });
    expect(approved.mapped.content).toContain('plain');
  });

  it('tells the model when a failure looks like the sandbox blocked it, and what to do', async () => {
    const sandbox = createFakeSandbox();
    const { mapped } = await run(
      { command: "echo 'touch: cannot touch x: Read-only file system' >&2; exit 1" },
      sandbox,
      { by: 'read-only', readOnly: true },
    );
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toContain('The sandbox may have blocked a write outside the writable places');
    expect(mapped.content).toContain('fake read-only sandbox');
    expect(mapped.content).toContain('dangerouslyDisableSandbox: true');
    const fine = await run({ command: "echo 'Read-only file system'" }, sandbox, { by: 'read-only', readOnly: true });
    expect(fine.mapped.content).toBe('Read-only file system');
  });

  it('sandboxes background commands too, and releases the launch when the task ends', async () => {
    const sandbox = createFakeSandbox();
    const registry = createTaskRegistry();
    const services = createServices()
      .set(SPILL_FOLDER, createSpillFolder({ path: path.join(root, 'spill') }))
      .set(SANDBOX, sandbox)
      .set(TASK_REGISTRY, registry);
    const context = createCallContext({ services, cwd: root, approval: { by: 'rule', readOnly: false } });
    const output = await tool.call(bashInputSchema.parse({ command: 'sleep 0.1', run_in_background: true }), context);
    expect(output.kind).toBe('background');
    expect(sandbox.requests.map((request) => [request.profile, request.argv.at(-1)])).toEqual([
      ['workspace', 'sleep 0.1'],
    ]);
    for (let attempt = 0; attempt < 100 && sandbox.released() === 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sandbox.released()).toBe(1);
    await registry.dispose();
  });
});
