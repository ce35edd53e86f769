import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { ModelProvider, ModelStreamEvent } from '../contract/provider.js';
import type { ToolUseBlock } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { query } from './query.js';
import { createSessionStore } from './session-store.js';
import { openTranscript } from './transcript-writer.js';
import type { LoopRecorder, QueryResult } from './types.js';

const block = (id: string): ToolUseBlock => ({ type: 'tool_use', id, name: 'Mark', input: {} });

/** A model that proposes one call, then never finishes its message (as if killed mid-stream). */
function hangingProvider(): ModelProvider {
  return {
    name: 'hanging',
    defaultModel: 'm',
    capabilities: {},
    async *stream(_request: unknown, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
      yield { type: 'tool-use-complete', block: block('w1') };
      await new Promise((_resolve, reject) => {
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error));
      });
    },
  } as unknown as ModelProvider;
}

async function run(recorder: LoopRecorder, calls: string[], controller: AbortController): Promise<QueryResult> {
  const mark = defineTool({
    name: 'Mark',
    inputSchema: z.object({}),
    prompt: 'x',
    call: async () => {
      calls.push('call');
      controller.abort();
      return 'marked';
    },
  });
  const generator = query({
    provider: hangingProvider(),
    system: 's',
    messages: [{ role: 'user', content: 'go' }],
    getPool: () => assembleToolPool({ builtins: [mark] }),
    plane: { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's' },
    signal: controller.signal,
    recorder,
  });
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

describe('the write-ahead transcript', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-write-ahead-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('records each tool_use before its call starts, while the message still streams', async () => {
    const order: string[] = [];
    const recorder: LoopRecorder = {
      message: () => undefined,
      toolUse: async (recorded) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(`recorded ${recorded.id}`);
      },
    };
    await run(recorder, order, new AbortController());
    expect(order).toEqual(['recorded w1', 'call']);
  });

  it('never starts a call whose tool_use could not be recorded, and ends the run with the error', async () => {
    const calls: string[] = [];
    const recorder: LoopRecorder = {
      message: () => undefined,
      toolUse: () => Promise.reject(new Error('ENOSPC: no space left on device')),
    };
    const result = await run(recorder, calls, new AbortController());
    expect(calls).toEqual([]);
    expect(result.status).toBe('error_during_execution');
    expect(result.error?.message).toContain('ENOSPC');
  });

  it('on load, answers calls the killed run left without a message or result, once, saying they may have run', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/work/app' });
    const session = store.create('killed');
    session.appendMessage({ role: 'user', content: 'go' });
    await session.appendToolUse(block('w1'));
    await session.appendToolUse(block('w2'));
    await session.flush();
    const loaded = await store.load('killed');
    expect(loaded.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(loaded.messages[1]!.content).toEqual([block('w1'), block('w2')]);
    expect(loaded.interrupted.map((result) => result.tool_use_id)).toEqual(['w1', 'w2']);
    expect(JSON.stringify(loaded.interrupted[0]!.content)).toContain('may or may not have run');
    // Once their message is on record, the write-ahead lines add nothing.
    const complete = store.create('complete');
    await complete.appendToolUse(block('w1'));
    complete.appendMessage({ role: 'assistant', content: [block('w1')] });
    complete.appendMessage({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'w1', content: 'done' }] });
    await complete.flush();
    const whole = await store.load('complete');
    expect(whole.messages).toHaveLength(2);
    expect(whole.interrupted).toEqual([]);
  });

  it('a full disk (/dev/full) is reported at once through `failed`, to the call and to flush, and nothing more is written', async () => {
    const transcript = openTranscript({
      id: 'full',
      cwd: '/work/app',
      path: '/dev/full',
      resultsDirectory: join(folder, 'results'),
      header: { type: 'session', sessionId: 'full', cwd: '/work/app', createdAt: new Date().toISOString() },
    });
    const failure = await transcript.failed;
    expect(failure.code).toBe('SESSION_CORRUPT');
    expect(failure.message).toMatch(/Could not write the transcript \/dev\/full: .*ENOSPC/);
    transcript.appendMessage({ role: 'user', content: 'go' });
    await expect(transcript.appendToolUse(block('w1'))).rejects.toBe(failure);
    await expect(transcript.flush()).rejects.toBe(failure);
  });
});
