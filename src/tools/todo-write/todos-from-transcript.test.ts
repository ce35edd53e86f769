import { describe, expect, it } from 'vitest';
import type { Message } from '../../messages/types.js';
import { todosFromTranscript } from './todos-from-transcript.js';

const use = (id: string, input: unknown): Message => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'updating' },
    { type: 'tool_use', id, name: 'TodoWrite', input },
  ],
});

describe('todosFromTranscript', () => {
  const first = { todos: [{ content: 'A', status: 'in_progress', activeForm: 'Doing A' }] };
  const second = {
    todos: [
      { content: 'A', status: 'completed', activeForm: 'Doing A' },
      { content: 'B', status: 'in_progress', activeForm: 'Doing B' },
    ],
  };

  it('takes the last valid TodoWrite snapshot', () => {
    const messages: Message[] = [
      { role: 'user', content: 'do A and B' },
      use('t1', first),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      use('t2', second),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'ls' } }] },
      use('t4', { todos: [{ content: 'C', status: 'finished', activeForm: 'x' }] }),
    ];
    expect(todosFromTranscript(messages)).toEqual(second.todos);
  });

  it('gives an empty list when there is none or the last one was all done', () => {
    expect(todosFromTranscript([{ role: 'user', content: 'hi' }])).toEqual([]);
    const done = { todos: [{ content: 'A', status: 'completed', activeForm: 'Doing A' }] };
    expect(todosFromTranscript([use('t1', first), use('t2', done)])).toEqual([]);
  });
});
