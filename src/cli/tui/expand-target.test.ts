import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../loop/types.js';
import { expandTarget } from './expand-target.js';
import { EMPTY_TRANSCRIPT, reduceTranscript, type TranscriptState } from './transcript-state.js';

const apply = (list: readonly LoopEvent[]): TranscriptState =>
  list.reduce((state, event) => reduceTranscript(state, { type: 'loop-event', event, now: 0 }), EMPTY_TRANSCRIPT);
const queue = (id: string, summary: string): LoopEvent => ({
  type: 'tool-call-queue',
  toolUseId: id,
  toolName: 'Bash',
  summary,
});
const start = (id: string, batch: number): LoopEvent => ({
  type: 'tool-call-start',
  toolUseId: id,
  toolName: 'Bash',
  batch,
});
const end = (id: string, content: string, isError = false): LoopEvent => ({
  type: 'tool-call-end',
  durationMs: 1,
  record: {
    toolUseId: id,
    toolName: 'Bash',
    input: {},
    outcome: { status: 'success', isError },
    result: { type: 'tool_result', tool_use_id: id, content },
  },
});

describe('expandTarget', () => {
  it('is undefined until a call has finished', () => {
    expect(expandTarget(EMPTY_TRANSCRIPT)).toBeUndefined();
    expect(expandTarget(apply([queue('a', 'ls'), start('a', 1)]))).toBeUndefined();
  });

  it('opens the latest finished call with its whole result', () => {
    const state = apply([queue('a', 'ls'), start('a', 1), end('a', 'one'), queue('b', 'seq 1 3'), start('b', 2)]);
    expect(expandTarget(state)).toEqual({ title: '✔ Bash ls', text: 'one' });
    const later = reduceTranscript(state, { type: 'loop-event', now: 0, event: end('b', '1\n2\n3') });
    expect(expandTarget(later)).toEqual({ title: '✔ Bash seq 1 3', text: '1\n2\n3' });
  });

  it('lists every call of a parallel batch with its result, a failure in its words', () => {
    const state = apply([
      queue('a', 'one'),
      queue('b', 'two'),
      start('a', 1),
      start('b', 1),
      end('a', 'first\nsecond'),
      end('b', '<tool_use_error>broken</tool_use_error>', true),
    ]);
    expect(expandTarget(state)).toEqual({
      title: '2 calls in parallel',
      text: '✔ Bash one\n    first\n    second\n✘ Bash two\n    broken',
    });
  });

  it('says where a saved output is', () => {
    const note =
      '[Output too large to show: 10 bytes. The full output is saved in /r/x.log; read it in parts (Read with offset and limit) or search it with Grep. The first 2 characters follow.]';
    const state = apply([queue('a', 'big'), start('a', 1), end('a', `${note}\n12`)]);
    expect(expandTarget(state)?.text).toBe('Output too large: saved to /r/x.log (10 bytes).\n\n12');
  });
});
