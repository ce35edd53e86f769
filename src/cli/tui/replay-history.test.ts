import { describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_USER_TEXT, outcomeText } from '../../execution/outcome-text.js';
import { MISSING_RESULT_TEXT } from '../../messages/repair-pairing.js';
import type { Message } from '../../messages/types.js';
import { replayHistory, replayedOutcome } from './replay-history.js';
import { EMPTY_TRANSCRIPT, reduceTranscript } from './transcript-state.js';

describe('replayHistory', () => {
  it('redraws prompts, text and calls with their outcomes', () => {
    const history: Message[] = [
      { role: 'user', content: 'read the file' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'r', name: 'Read', input: { file_path: '/a' } },
          { type: 'tool_use', id: 'e', name: 'Edit', input: { file_path: '/a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'r', content: 'text' },
          { type: 'tool_result', tool_use_id: 'e', content: 'not read', is_error: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    const state = replayHistory(history, 0).reduce(reduceTranscript, EMPTY_TRANSCRIPT);
    expect(state.running).toBe(false);
    expect(state.entries.filter((entry) => entry.kind === 'prompt')).toHaveLength(1);
    expect(state.calls.get('r')?.phase).toBe('done');
    expect(state.calls.get('e')?.phase).toBe('failed');
    expect(JSON.stringify(state.entries)).toContain('Reading.');
    expect(JSON.stringify(state.entries)).toContain('Done.');
  });

  it('replays an interrupted call as interrupted, a refused one as denied, never as failed', () => {
    const history: Message[] = [
      { role: 'user', content: 'run things' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'sleep', name: 'Bash', input: { command: 'sleep 100' } },
          { type: 'tool_use', id: 'rm', name: 'Bash', input: { command: 'rm -rf x' } },
          { type: 'tool_use', id: 'lost', name: 'Bash', input: { command: 'echo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'sleep', content: INTERRUPTED_BY_USER_TEXT, is_error: true },
          {
            type: 'tool_result',
            tool_use_id: 'rm',
            content: outcomeText(
              { status: 'denied', message: '', reason: { kind: 'rule', rule: 'Bash(rm:*)', source: 'cli' } },
              'Bash',
            ),
            is_error: true,
          },
          {
            type: 'tool_result',
            tool_use_id: 'lost',
            content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
            is_error: true,
          },
        ],
      },
    ];
    const state = replayHistory(history, 0).reduce(reduceTranscript, EMPTY_TRANSCRIPT);
    expect(state.calls.get('sleep')?.phase).toBe('interrupted');
    expect(state.calls.get('rm')?.phase).toBe('denied');
    expect(state.calls.get('lost')?.phase).toBe('interrupted');
  });
});

describe('replayedOutcome', () => {
  it('a call with no result at all was interrupted', () => {
    expect(replayedOutcome(undefined)).toEqual({ status: 'aborted', cause: 'interrupt' });
  });
  it("an error result in the tool's words is a failure", () => {
    expect(
      replayedOutcome({ type: 'tool_result', tool_use_id: 'x', content: 'Error: no such file', is_error: true }),
    ).toMatchObject({ status: 'failed' });
  });
});
