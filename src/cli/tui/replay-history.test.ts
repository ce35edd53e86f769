import { describe, expect, it } from 'vitest';
import type { Message } from '../../messages/types.js';
import { replayHistory } from './replay-history.js';
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
});
