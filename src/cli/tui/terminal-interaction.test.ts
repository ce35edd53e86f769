import { describe, expect, it } from 'vitest';
import { createTerminalInteraction } from './terminal-interaction.js';

const base = { toolUseId: 't', agentId: 'main' };

describe('createTerminalInteraction', () => {
  it('questions and plans wait in one queue and settle with the answers given', async () => {
    const { channel, queue } = createTerminalInteraction();
    const signal = new AbortController().signal;
    const asked = channel.askQuestions({ ...base, questions: [] }, signal);
    const reviewed = channel.reviewPlan({ ...base, plan: 'p' }, signal);
    const first = queue.current();
    expect(first?.item.kind).toBe('questions');
    queue.answer(first!.id, { kind: 'questions', response: { kind: 'answered', answers: [] } });
    await expect(asked).resolves.toEqual({ kind: 'answered', answers: [] });
    const second = queue.current();
    expect(second?.item).toEqual({ kind: 'plan', request: { ...base, plan: 'p' } });
    queue.answer(second!.id, { kind: 'plan', response: { approved: true } });
    await expect(reviewed).resolves.toEqual({ approved: true });
  });

  it('an answer of the wrong kind declines rather than passing a wrong shape on', async () => {
    const { channel, queue } = createTerminalInteraction();
    const signal = new AbortController().signal;
    const asked = channel.askQuestions({ ...base, questions: [] }, signal);
    queue.answer(queue.current()!.id, { kind: 'plan', response: { approved: true } });
    await expect(asked).resolves.toEqual({ kind: 'declined' });
    const reviewed = channel.reviewPlan({ ...base, plan: 'p' }, signal);
    queue.answer(queue.current()!.id, { kind: 'questions', response: { kind: 'declined' } });
    await expect(reviewed).resolves.toEqual({ approved: false });
  });

  it('an aborted call leaves the queue and rejects', async () => {
    const { channel, queue } = createTerminalInteraction();
    const controller = new AbortController();
    const asked = channel.askQuestions({ ...base, questions: [] }, controller.signal);
    controller.abort(new Error('interrupted'));
    await expect(asked).rejects.toThrow(/interrupted/);
    expect(queue.current()).toBeUndefined();
  });
});
