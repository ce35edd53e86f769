import { describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '../../execution/types.js';
import type { LoopEvent } from '../../loop/types.js';
import {
  EMPTY_TRANSCRIPT,
  OUTPUT_TAIL_LINES,
  describeOutcome,
  groupEntries,
  reduceTranscript,
  type TranscriptState,
} from './transcript-state.js';

const events = (state: TranscriptState, list: readonly LoopEvent[], now = 1_000): TranscriptState =>
  list.reduce((current, event) => reduceTranscript(current, { type: 'loop-event', event, now }), state);

const queue = (id: string, toolName = 'Read', summary = id): LoopEvent => ({
  type: 'tool-call-queue',
  toolUseId: id,
  toolName,
  summary,
});
const start = (id: string, batch: number, toolName = 'Read'): LoopEvent => ({
  type: 'tool-call-start',
  toolUseId: id,
  toolName,
  batch,
});
const end = (id: string, outcome: ToolCallOutcome, toolName = 'Read'): LoopEvent => ({
  type: 'tool-call-end',
  durationMs: 40,
  record: {
    toolUseId: id,
    toolName,
    input: {},
    outcome,
    result: { type: 'tool_result', tool_use_id: id, content: '' },
  },
});
const turnStart: LoopEvent = {
  type: 'request-start',
  turn: 1,
  request: { model: 'm', system: [], messages: [], tools: [], maxTokens: 1 },
};

describe('reduceTranscript', () => {
  it('streams text into one entry until something else comes between', () => {
    let state = reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'hi' });
    state = events(state, [
      turnStart,
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      queue('a'),
      { type: 'text-delta', text: 'More' },
    ]);
    expect(state.entries).toEqual([
      { kind: 'prompt', text: 'hi' },
      { kind: 'text', text: 'Hello' },
      { kind: 'call', toolUseId: 'a' },
      { kind: 'text', text: 'More' },
    ]);
    expect(state.running).toBe(true);
  });

  it('a new model request settles what came before, up to a call still running', () => {
    let state = reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'go' });
    state = events(state, [turnStart]);
    expect(state.settledCount).toBe(1);
    state = events(state, [
      { type: 'text-delta', text: 'reading' },
      queue('a'),
      start('a', 1),
      end('a', { status: 'success', isError: false }),
      turnStart,
    ]);
    expect(state.settledCount).toBe(3);
    state = events(state, [queue('b'), { type: 'text-delta', text: 'more' }, turnStart]);
    expect(state.settledCount).toBe(3);
  });

  it('a new model request starts a new text entry', () => {
    const state = events(EMPTY_TRANSCRIPT, [
      turnStart,
      { type: 'text-delta', text: 'one' },
      turnStart,
      { type: 'text-delta', text: 'two' },
    ]);
    expect(state.entries.filter((entry) => entry.kind === 'text')).toHaveLength(2);
    expect(state.turn).toBe(2);
  });

  it('walks a call through queued, waiting for approval, running with output, and done', () => {
    let state = events(EMPTY_TRANSCRIPT, [turnStart, queue('a', 'Bash', 'npm test')]);
    expect(state.calls.get('a')).toMatchObject({ phase: 'queued', summary: 'npm test', toolName: 'Bash', turn: 1 });
    state = events(state, [start('a', 1, 'Bash')], 2_000);
    expect(state.calls.get('a')).toMatchObject({ phase: 'running', startedAt: 2_000, batch: 1 });
    state = events(state, [
      { type: 'permission-request', toolUseId: 'a', toolName: 'Bash', summary: 'other', message: 'ask' },
    ]);
    expect(state.calls.get('a')).toMatchObject({ phase: 'awaiting-approval', summary: 'npm test' });
    state = events(state, [
      { type: 'permission-decision', toolUseId: 'a', behavior: 'ask', reason: { kind: 'mode', mode: 'default' } },
    ]);
    expect(state.calls.get('a')?.phase).toBe('awaiting-approval');
    state = reduceTranscript(state, { type: 'approval-answer', toolUseId: 'a', behavior: 'allow', now: 3_000 });
    expect(state.calls.get('a')).toMatchObject({ phase: 'running', startedAt: 3_000 });
    const lines = Array.from({ length: 8 }, (_, index) => `line ${index}`).join('\n');
    state = events(state, [
      { type: 'tool-call-progress', toolUseId: 'a', progress: { kind: 'bash-output', message: `${lines}\n\n` } },
    ]);
    expect(state.calls.get('a')?.outputTail).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7']);
    expect(state.calls.get('a')?.outputTail).toHaveLength(OUTPUT_TAIL_LINES);
    // It ran from the answer (3 000) to its end (3 400): the wait for approval is not counted.
    state = events(state, [end('a', { status: 'success', isError: false }, 'Bash')], 3_400);
    expect(state.calls.get('a')).toMatchObject({ phase: 'done', durationMs: 400 });
  });

  it("keeps the plane's duration for a call that never started in this view (a replay)", () => {
    const state = events(EMPTY_TRANSCRIPT, [queue('a'), end('a', { status: 'success', isError: false })]);
    expect(state.calls.get('a')?.durationMs).toBe(40);
  });

  it('shows a failure in the words the model got, cleaned, and keeps the result for the expand view', () => {
    const failed: LoopEvent = {
      type: 'tool-call-end',
      durationMs: 5,
      record: {
        toolUseId: 'f',
        toolName: 'Bash',
        input: {},
        outcome: { status: 'success', isError: true },
        result: { type: 'tool_result', tool_use_id: 'f', content: 'ls: no such file\nExit code 2' },
      },
    };
    const state = events(EMPTY_TRANSCRIPT, [failed]);
    expect(state.calls.get('f')).toMatchObject({
      phase: 'failed',
      detail: 'ls: no such file\nExit code 2',
      result: { text: 'ls: no such file\nExit code 2', lineCount: 2 },
    });
  });

  it('a denied or aborted answer leaves the row waiting until the plane ends the call', () => {
    let state = events(EMPTY_TRANSCRIPT, [
      queue('a'),
      { type: 'permission-request', toolUseId: 'a', toolName: 'Read', summary: 's', message: 'm' },
    ]);
    state = reduceTranscript(state, { type: 'approval-answer', toolUseId: 'a', behavior: 'deny', now: 1 });
    expect(state.calls.get('a')?.phase).toBe('awaiting-approval');
    state = reduceTranscript(state, { type: 'approval-answer', toolUseId: 'missing', behavior: 'allow', now: 1 });
    expect(state.calls.has('missing')).toBe(false);
  });

  it('progress without a message, or for an unknown call, changes nothing', () => {
    const state = events(EMPTY_TRANSCRIPT, [queue('a')]);
    expect(events(state, [{ type: 'tool-call-progress', toolUseId: 'a', progress: { kind: 'x' } }])).toBe(state);
    expect(
      events(state, [{ type: 'tool-call-progress', toolUseId: 'b', progress: { kind: 'x', message: 'hi' } }]),
    ).toBe(state);
  });

  it('creates the row for an end or start whose queue event it never saw', () => {
    const state = events(EMPTY_TRANSCRIPT, [end('x', { status: 'failed', message: 'boom' }, 'Write')]);
    expect(state.entries).toEqual([{ kind: 'call', toolUseId: 'x' }]);
    expect(state.calls.get('x')).toMatchObject({ phase: 'failed', detail: 'boom', toolName: 'Write' });
  });

  it('attaches a diff to its call and ignores diffs for unknown calls', () => {
    let state = events(EMPTY_TRANSCRIPT, [queue('a', 'Edit')]);
    state = reduceTranscript(state, { type: 'call-diff', toolUseId: 'a', diff: [{ kind: 'add', text: 'x' }] });
    expect(state.calls.get('a')?.diff).toEqual([{ kind: 'add', text: 'x' }]);
    expect(reduceTranscript(state, { type: 'call-diff', toolUseId: 'b', diff: [] })).toBe(state);
  });

  it('an interrupted turn marks every unfinished call interrupted and settles the entries', () => {
    let state = reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'go' });
    state = events(state, [
      turnStart,
      queue('a'),
      queue('b'),
      start('a', 1),
      end('b', { status: 'success', isError: false }),
    ]);
    state = reduceTranscript(state, { type: 'turn-end', outcome: 'interrupted' });
    expect(state.calls.get('a')?.phase).toBe('interrupted');
    expect(state.calls.get('b')?.phase).toBe('done');
    expect(state.running).toBe(false);
    expect(state.entries.at(-1)).toEqual({ kind: 'notice', text: 'Interrupted.', tone: 'warning' });
    expect(state.settledCount).toBe(state.entries.length);
  });

  it('a failed turn marks unfinished calls failed and says why', () => {
    let state = events(EMPTY_TRANSCRIPT, [queue('a')]);
    state = reduceTranscript(state, { type: 'turn-end', outcome: 'error', message: 'network down' });
    expect(state.calls.get('a')).toMatchObject({ phase: 'failed', detail: 'ended without a result' });
    expect(state.entries.at(-1)).toEqual({ kind: 'notice', text: 'network down', tone: 'error' });
    const ok = reduceTranscript(events(EMPTY_TRANSCRIPT, [queue('c')]), { type: 'turn-end', outcome: 'success' });
    expect(ok.entries).toHaveLength(1);
  });

  it('shows a retry of the model request as a warning with its cause, wait and attempt, and closes the text', () => {
    const state = events(EMPTY_TRANSCRIPT, [
      { type: 'text-delta', text: 'half an answ' },
      {
        type: 'retry',
        attempt: 2,
        maxRetries: 10,
        delayMs: 1_250,
        message: 'HTTP 529 overloaded_error: Overloaded',
        status: 529,
      },
      { type: 'text-delta', text: 'A whole answer.' },
    ]);
    expect(state.entries.map((entry) => entry.kind)).toEqual(['text', 'notice', 'text']);
    expect(state.entries[1]).toEqual({
      kind: 'notice',
      text: 'The model request failed (HTTP 529 overloaded_error: Overloaded); retrying in 1.3 s (retry 2 of 10).',
      tone: 'warning',
    });
  });

  it('shows notices, errors, compaction and duplicate ids as notices', () => {
    const state = events(EMPTY_TRANSCRIPT, [
      { type: 'notice', message: 'hook stopped' },
      { type: 'error', error: new Error('bad') },
      { type: 'compact', removedMessages: 4, summary: 's' },
      { type: 'tool-call-duplicate', toolUseId: 'a' },
    ]);
    expect(state.entries.map((entry) => (entry.kind === 'notice' ? entry.tone : entry.kind))).toEqual([
      'info',
      'error',
      'info',
      'warning',
    ]);
  });

  it('a notice between turns settles at once; during a turn it waits for the turn', () => {
    const idle = reduceTranscript(EMPTY_TRANSCRIPT, { type: 'notice', text: 'rules', tone: 'info' });
    expect(idle.settledCount).toBe(1);
    const busy = reduceTranscript(reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'x' }), {
      type: 'notice',
      text: 'rules',
      tone: 'info',
    });
    expect(busy.settledCount).toBe(0);
  });

  it('clear empties everything; assistant messages and tool results change nothing', () => {
    const state = events(EMPTY_TRANSCRIPT, [queue('a')]);
    expect(reduceTranscript(state, { type: 'clear' })).toBe(EMPTY_TRANSCRIPT);
    const same = events(state, [
      {
        type: 'assistant-message',
        message: { role: 'assistant', content: [] },
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
      },
      { type: 'tool-results', message: { role: 'user', content: [] } },
    ]);
    expect(same).toBe(state);
  });
});

describe('describeOutcome', () => {
  const cases: ReadonlyArray<readonly [ToolCallOutcome, string, string | undefined]> = [
    [{ status: 'success', isError: false }, 'done', undefined],
    [{ status: 'success', isError: true }, 'failed', 'the tool reported a failure'],
    [{ status: 'unknown-tool' }, 'failed', 'no tool of that name'],
    [{ status: 'invalid-input', message: 'bad json' }, 'failed', 'bad json'],
    [{ status: 'validation-failed', message: 'read it first' }, 'failed', 'read it first'],
    [{ status: 'failed', message: 'threw' }, 'failed', 'threw'],
    [{ status: 'timeout', timeoutMs: 500 }, 'failed', 'timed out after 500 ms'],
    [{ status: 'hook-blocked', hook: 'guard.sh', message: 'no' }, 'denied', 'blocked by hook guard.sh: no'],
    [{ status: 'hook-blocked', hook: undefined, message: 'no' }, 'denied', 'no'],
    [
      { status: 'denied', message: 'm', reason: { kind: 'rule', rule: 'Bash(rm:*)', source: 'userSettings' } },
      'denied',
      'rule Bash(rm:*) from userSettings',
    ],
    [{ status: 'cancelled', byToolUseId: 'x' }, 'cancelled', 'cancelled because x failed'],
    [{ status: 'aborted', cause: 'interrupt' }, 'interrupted', undefined],
    [{ status: 'aborted', cause: 'abort' }, 'interrupted', undefined],
  ];
  it.each(cases)('%j shows as %s', (outcome, phase, detail) => {
    expect(describeOutcome(outcome)).toEqual(detail === undefined ? { phase } : { phase, detail });
  });
});

describe('groupEntries', () => {
  it('groups consecutive calls of one batch, leaves single calls and other entries alone', () => {
    const state = events(reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'go' }), [
      turnStart,
      queue('a'),
      queue('b'),
      queue('c'),
      queue('d'),
      start('a', 1),
      start('b', 1),
      start('c', 1),
      start('d', 2),
    ]);
    expect(groupEntries(state.entries, state.calls)).toEqual([
      { kind: 'entry', entry: { kind: 'prompt', text: 'go' } },
      { kind: 'batch', batch: 1, toolUseIds: ['a', 'b', 'c'] },
      { kind: 'entry', entry: { kind: 'call', toolUseId: 'd' } },
    ]);
  });

  it('never joins batches of different turns that share a number, nor across other entries', () => {
    const state = events(EMPTY_TRANSCRIPT, [
      turnStart,
      queue('a'),
      start('a', 1),
      turnStart,
      queue('b'),
      start('b', 1),
      queue('c'),
      start('c', 1),
      { type: 'text-delta', text: 'between' },
      queue('d'),
      start('d', 1),
    ]);
    const blocks = groupEntries(state.entries, state.calls);
    expect(blocks.map((block) => (block.kind === 'batch' ? block.toolUseIds.join('+') : block.entry.kind))).toEqual([
      'call',
      'b+c',
      'text',
      'call',
    ]);
  });

  it('keeps calls that have not started (no batch yet) as single rows', () => {
    const state = events(EMPTY_TRANSCRIPT, [queue('a'), queue('b')]);
    expect(groupEntries(state.entries, state.calls).every((block) => block.kind === 'entry')).toBe(true);
  });
});
