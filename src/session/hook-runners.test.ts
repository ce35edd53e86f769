import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookConfig } from '../contract/hook-config.js';
import { createServices } from '../contract/services.js';
import { createHookGate } from '../hooks/create-hook-gate.js';
import { createAnthropicProvider } from '../providers/anthropic/anthropic-provider.js';
import { startMockAnthropicServer } from '../testing/mock-anthropic-server.js';
import type { MockModelServer, MockReply } from '../testing/mock-server-types.js';
import { createAsyncHookOutput } from './async-hook-output.js';
import { createHookRunners } from './hook-runners.js';
import { bashCall } from './__fixtures__/bash-call.js';

let dir: string;
let server: MockModelServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-hook-runners-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function gate(hook: HookConfig, replies: MockReply[], baseURL?: string) {
  server = await startMockAnthropicServer({ replies });
  const provider = createAnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k' }, baseURL: baseURL ?? server.baseURL });
  const warnings: string[] = [];
  const output = createAsyncHookOutput((line) => warnings.push(line));
  const runners = createHookRunners({
    provider,
    model: () => 'main-model',
    mcp: undefined,
    services: createServices(),
    tools: () => {
      throw new Error('a prompt hook needs no tools');
    },
    plane: () => {
      throw new Error('a prompt hook needs no plane');
    },
    costs: () => undefined,
    cwd: dir,
  });
  const hooks = createHookGate({
    settings: new Map([['PreToolUse', [{ matcher: 'Bash', source: 'userSettings', hooks: [hook] }]]]),
    projectDir: dir,
    env: {},
    runners,
    onAsyncRun: output.onAsyncRun,
    lifetime: output.lifetime,
    onDiagnostic: (diagnostic) => warnings.push(`${diagnostic.kind}: ${diagnostic.message}`),
  });
  return { hooks, output, warnings, provider };
}

const until = async (check: () => boolean) => {
  for (let waited = 0; waited < 5_000 && !check(); waited += 20) await new Promise((done) => setTimeout(done, 20));
};

describe('prompt hooks on the real Anthropic provider', () => {
  it("asks the small model of Anthropic's own API by default, and the main model of another server", async () => {
    const own = createAnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k' } });
    expect(own.smallModel).toBe('claude-haiku-5-5');
    const chosen = createAnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_DEFAULT_HAIKU_MODEL: 'h' } });
    expect(chosen.smallModel).toBe('h');
    const { hooks, provider } = await gate({ type: 'prompt', prompt: 'p' }, [
      { content: [{ type: 'text', text: '{"ok": true}' }] },
    ]);
    expect(provider.smallModel).toBe(provider.defaultModel);
    expect(await hooks.preToolUse(bashCall('ls', dir), new AbortController().signal)).toEqual({});
    expect((server.requests[0]!.body as { model: string }).model).toBe(provider.defaultModel);
  });

  it('an async prompt hook decides nothing; its late no and its context arrive after the call ended', async () => {
    const slow = (text: string): MockReply => ({
      kind: 'turn',
      turn: { content: [{ type: 'text', text }] },
      chunkDelayMs: 60,
    });
    const { hooks, output, warnings } = await gate({ type: 'prompt', prompt: 'p', async: true }, [
      slow('{"ok": false, "reason": "late no"}'),
      slow('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "the judge looked"}}'),
    ]);
    const signal = new AbortController().signal;
    // Each call is decided (nothing) before the judge has answered.
    expect(await hooks.preToolUse(bashCall('git push', dir), signal)).toEqual({});
    expect(warnings).toEqual([]);
    await until(() => warnings.length > 0);
    expect(warnings).toEqual([expect.stringContaining('(async): late no')]);
    // The model still learns of the objection, with the next request.
    expect(output.take()).toEqual([expect.stringContaining('objected, after the fact: late no')]);
    expect(await hooks.preToolUse(bashCall('git push', dir), signal)).toEqual({});
    expect(output.take()).toEqual([]);
    let taken: readonly string[] = [];
    await until(() => (taken = [...taken, ...output.take()]).length > 0);
    expect(taken).toEqual([expect.stringContaining('the judge looked')]);
    expect(server.requests).toHaveLength(2);
  });
});
