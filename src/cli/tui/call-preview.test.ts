import { describe, expect, it } from 'vitest';
import { callPreview } from './call-preview.js';
import type { CallView } from './transcript-state.js';

const call = (change: Partial<CallView>): CallView => ({
  toolUseId: 't',
  toolName: 'Bash',
  summary: 's',
  turn: 1,
  phase: 'done',
  outputTail: [],
  ...change,
});
const result = (text: string, extra: Partial<NonNullable<CallView['result']>> = {}) => ({
  text,
  lineCount: text === '' ? 0 : text.split('\n').length,
  ...extra,
});

describe('callPreview', () => {
  it('shows the live tail while a call runs, and nothing without output', () => {
    expect(callPreview(call({ phase: 'running', outputTail: ['a', 'b'] }))).toEqual({
      lines: ['a', 'b'],
      more: 0,
      tone: 'output',
    });
    expect(callPreview(call({ phase: 'running' }))).toBeUndefined();
  });

  it('shows the first lines of a finished result and how many more', () => {
    expect(callPreview(call({ result: result('1\n2\n3\n4\n5\n6\n7') }))).toEqual({
      lines: ['1', '2', '3', '4'],
      more: 3,
      tone: 'output',
    });
    expect(callPreview(call({ result: result('') }))).toBeUndefined();
  });

  it('shows a failure as an error, in its words', () => {
    expect(callPreview(call({ phase: 'failed', detail: 'boom\nExit code 1' }))).toEqual({
      lines: ['boom', 'Exit code 1'],
      more: 0,
      tone: 'error',
    });
  });

  it('says where a too-large output was saved', () => {
    const preview = callPreview(call({ result: result('1', { savedPath: '/x.log', savedSize: '9 bytes' }) }));
    expect(preview?.saved).toBe('Output too large: saved to /x.log (9 bytes)');
  });

  it('sums up a Read, and leaves out results shown another way', () => {
    expect(callPreview(call({ toolName: 'Read', result: result('a\nb\nc') }))?.lines).toEqual(['Read 3 lines']);
    expect(callPreview(call({ toolName: 'Read', result: result('a') }))?.lines).toEqual(['Read 1 line']);
    expect(callPreview(call({ toolName: 'TodoWrite', result: result('ok') }))).toBeUndefined();
    expect(callPreview(call({ toolName: 'Edit', diff: [], result: result('updated') }))).toBeUndefined();
    expect(callPreview(call({ phase: 'denied', detail: 'rule', result: result('x') }))).toBeUndefined();
  });
});
