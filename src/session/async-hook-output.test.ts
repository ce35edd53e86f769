import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import { createHookGate } from '../hooks/create-hook-gate.js';
import { createAsyncHookOutput } from './async-hook-output.js';
import { bashCall } from './__fixtures__/bash-call.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-async-hook-'));
  await mkdir(join(dir, 'project'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = () => bashCall('git push', join(dir, 'project'));

function gate(command: string, warnings: string[]) {
  const output = createAsyncHookOutput((line) => warnings.push(line));
  const settings = new Map<HookEventName, HookMatcherConfig[]>([
    [
      'PreToolUse',
      [{ matcher: 'Bash', source: 'projectSettings', hooks: [{ type: 'command', command, async: true }] }],
    ],
  ]);
  const hooks = createHookGate({
    settings,
    projectDir: join(dir, 'project'),
    env: { PATH: process.env['PATH'] },
    onAsyncRun: output.onAsyncRun,
    lifetime: output.lifetime,
  });
  return { hooks, output };
}

const until = async (check: () => boolean) => {
  for (let waited = 0; waited < 5_000 && !check(); waited += 20) await new Promise((done) => setTimeout(done, 20));
};

describe('an async hook', () => {
  it('never delays or blocks the call that started it, even when it exits 2; what it says is taken later', async () => {
    const warnings: string[] = [];
    const done = join(dir, 'done');
    const { hooks, output } = gate(
      `sleep 0.5; touch ${done}; printf '{"systemMessage":"push noted"}'; exit 0`,
      warnings,
    );
    const outcome = await hooks.preToolUse(call(), new AbortController().signal);
    // Decided before the hook ended.
    expect(existsSync(done)).toBe(false);
    expect(outcome.decision).toBeUndefined();
    let taken: readonly string[] = [];
    await until(() => (taken = [...taken, ...output.take()]).length > 0);
    expect(existsSync(done)).toBe(true);
    expect(taken).toEqual([expect.stringContaining('push noted')]);
    // Its exit code 2 blocks nothing: it is not waited for.
    const blocking = gate('echo "no" >&2; exit 2', warnings);
    expect((await blocking.hooks.preToolUse(call(), new AbortController().signal)).decision).toBeUndefined();
  });

  it('is taken once, and is stopped when the session closes', async () => {
    const warnings: string[] = [];
    const said = gate(`printf '{"systemMessage":"push noted"}'`, warnings);
    await said.hooks.preToolUse(call(), new AbortController().signal);
    let taken: readonly string[] = [];
    await until(() => (taken = [...taken, ...said.output.take()]).length > 0);
    expect(taken).toHaveLength(1);
    expect(said.output.take()).toEqual([]);

    const late = join(dir, 'late');
    const slow = gate(`sleep 2; touch ${late}`, warnings);
    await slow.hooks.preToolUse(call(), new AbortController().signal);
    slow.output.end();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(existsSync(late)).toBe(false);
    expect(warnings.filter((line) => line.includes('sleep 2'))).toEqual([]);
  });
});
