import { describe, expect, it } from 'vitest';
import { EMPTY_TRANSCRIPT, reduceTranscript } from './transcript-state.js';

// After "Edit the input" in the permission dialog, the call's row shows the edited input.

describe('reduceTranscript, call-edited', () => {
  const queued = reduceTranscript(EMPTY_TRANSCRIPT, {
    type: 'loop-event',
    event: { type: 'tool-call-queue', toolUseId: 'w1', toolName: 'Write', summary: 'old.txt' },
    now: 1_000,
  });
  const withDiff = reduceTranscript(queued, {
    type: 'call-diff',
    toolUseId: 'w1',
    diff: [{ kind: 'add', text: 'old text' }],
  });

  it('replaces the summary and the diff with the edited ones', () => {
    const edited = reduceTranscript(withDiff, {
      type: 'call-edited',
      toolUseId: 'w1',
      summary: 'new.txt',
      diff: [{ kind: 'add', text: 'new text' }],
    });
    expect(edited.calls.get('w1')).toMatchObject({ summary: 'new.txt', diff: [{ kind: 'add', text: 'new text' }] });
  });

  it('drops the old diff when the edit brings none, and ignores a call it has not seen', () => {
    const edited = reduceTranscript(withDiff, { type: 'call-edited', toolUseId: 'w1', summary: 'new.txt' });
    expect(edited.calls.get('w1')?.summary).toBe('new.txt');
    expect(edited.calls.get('w1')?.diff).toBeUndefined();
    expect(reduceTranscript(withDiff, { type: 'call-edited', toolUseId: 'nope', summary: 'x' })).toBe(withDiff);
  });
});
