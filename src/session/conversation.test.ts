import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { todosFrom } from './conversation.js';

const todoWrite = (id: string, statuses: readonly string[]): Message => ({
  role: 'assistant',
  content: [
    {
      type: 'tool_use',
      id,
      name: 'TodoWrite',
      input: {
        todos: statuses.map((status, index) => ({ content: `step ${index}`, activeForm: `doing ${index}`, status })),
      },
    },
  ],
});
const result = (id: string, isError = false): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'ok', ...(isError ? { is_error: true } : {}) }],
});

describe('todosFrom (the todo list a resumed conversation starts with)', () => {
  it('rebuilds the list of the last TodoWrite that did not fail', () => {
    const messages = [
      todoWrite('a', ['completed', 'in_progress']),
      result('a'),
      todoWrite('b', ['pending']),
      result('b', true),
    ];
    expect(todosFrom(messages).map((todo) => todo.status)).toEqual(['completed', 'in_progress']);
  });

  it('clears a list whose items are all done', () => {
    expect(todosFrom([todoWrite('a', ['completed', 'completed']), result('a')])).toEqual([]);
  });

  it('is empty without any TodoWrite', () => {
    expect(todosFrom([{ role: 'user', content: 'hi' }])).toEqual([]);
  });
});
