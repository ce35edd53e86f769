import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../contract/gates.js';
import { defineTool } from '../../contract/define-tool.js';
import { createApprovalQueue } from './approval-queue.js';
import { z } from 'zod';

const tool = defineTool({ name: 'Probe', inputSchema: z.object({}), prompt: () => 'probe', call: async () => 'ok' });
const request = (toolUseId: string): ApprovalRequest => ({
  tool,
  input: {},
  toolUseId,
  message: 'may I?',
  summary: 'probe',
  reason: { kind: 'mode', mode: 'default' },
  suggestions: [],
});

describe('createApprovalQueue', () => {
  it('shows requests one at a time in arrival order and settles each with its answer', async () => {
    const queue = createApprovalQueue();
    let changes = 0;
    queue.subscribe(() => changes++);
    const signal = new AbortController().signal;
    const first = queue.request(request('a'), signal);
    const second = queue.request(request('b'), signal);
    expect(changes).toBe(1);
    const shown = queue.current();
    expect(shown?.request.toolUseId).toBe('a');
    queue.answer(shown!.id, { behavior: 'allow' });
    await expect(first).resolves.toEqual({ behavior: 'allow' });
    expect(changes).toBe(2);
    const next = queue.current();
    expect(next?.request.toolUseId).toBe('b');
    queue.answer(next!.id, { behavior: 'deny', feedback: 'no' });
    await expect(second).resolves.toEqual({ behavior: 'deny', feedback: 'no' });
    expect(queue.current()).toBeUndefined();
  });

  it('ignores answers for ids it does not hold, and a second answer to the same id', async () => {
    const queue = createApprovalQueue();
    const pending = queue.request(request('a'), new AbortController().signal);
    const id = queue.current()!.id;
    queue.answer(id + 100, { behavior: 'abort' });
    expect(queue.current()?.id).toBe(id);
    queue.answer(id, { behavior: 'abort' });
    queue.answer(id, { behavior: 'allow' });
    await expect(pending).resolves.toEqual({ behavior: 'abort' });
  });

  it('an aborted turn takes its request off the screen and rejects it', async () => {
    const queue = createApprovalQueue();
    const controller = new AbortController();
    const other = new AbortController();
    const first = queue.request(request('a'), controller.signal);
    const second = queue.request(request('b'), other.signal);
    controller.abort();
    await expect(first).rejects.toThrow(/interrupted/);
    expect(queue.current()?.request.toolUseId).toBe('b');
    other.abort();
    await expect(second).rejects.toThrow(/interrupted/);
    expect(queue.current()).toBeUndefined();
  });

  it('rejects at once when the signal is already aborted', async () => {
    const queue = createApprovalQueue();
    await expect(queue.request(request('a'), AbortSignal.abort())).rejects.toThrow(/interrupted/);
    expect(queue.current()).toBeUndefined();
  });

  it('stops telling a listener once it unsubscribes', () => {
    const queue = createApprovalQueue();
    let changes = 0;
    const unsubscribe = queue.subscribe(() => changes++);
    unsubscribe();
    void queue.request(request('a'), new AbortController().signal);
    expect(changes).toBe(0);
  });
});
