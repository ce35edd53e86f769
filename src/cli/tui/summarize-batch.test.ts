import { describe, expect, it } from 'vitest';
import { summarizeBatch } from './summarize-batch.js';
import type { CallPhase, CallView } from './transcript-state.js';

const call = (id: string, phase: CallPhase, toolName = 'Read'): CallView => ({
  toolUseId: id,
  toolName,
  summary: id,
  turn: 1,
  phase,
  outputTail: [],
});

describe('summarizeBatch', () => {
  it('names one tool by what its calls are about, and counts each state', () => {
    const calls = [...Array.from({ length: 298 }, (_, index) => call(`r${index}`, 'done')), call('x', 'failed')];
    calls.push(call('y', 'failed'));
    const summary = summarizeBatch(calls);
    expect(summary.title).toBe('Read 300 files');
    expect(summary.counts).toBe('298 ok · 2 failed');
    expect(summary.phase).toBe('failed');
    expect(summary.apart.map((view) => view.toolUseId)).toEqual(['x', 'y']);
  });

  it('lists mixed tools, and is running until every call settled', () => {
    const summary = summarizeBatch([
      call('a', 'done'),
      call('b', 'running', 'Grep'),
      call('c', 'awaiting-approval', 'Bash'),
      call('d', 'done', 'Grep'),
    ]);
    expect(summary.title).toBe('4 calls: Read ×1, Grep ×2, Bash ×1');
    expect(summary.counts).toBe('2 ok · 1 waiting for approval · 1 running');
    expect(summary.phase).toBe('running');
    expect(summary.apart.map((view) => view.toolUseId)).toEqual(['c']);
  });

  it('uses the singular for one call, and a generic noun for tools it has no word for', () => {
    expect(summarizeBatch([call('a', 'done', 'Grep')]).title).toBe('Grep 1 search');
    expect(summarizeBatch([call('a', 'done', 'mcp__x__y'), call('b', 'done', 'mcp__x__y')]).title).toBe(
      'mcp__x__y 2 calls',
    );
    expect(summarizeBatch([call('a', 'done'), call('b', 'interrupted')]).phase).toBe('interrupted');
    expect(summarizeBatch([call('a', 'done'), call('b', 'done')]).phase).toBe('done');
  });
});
