import type { Message } from '../../messages/types.js';
import type { TodoItem } from './todo-store.js';
import { todoWriteInputSchema } from './todo-write-tool.js';

/**
 * Rebuilds an agent's todo list from its transcript, for resume and compaction: each TodoWrite
 * input is a full snapshot, so the last valid one is the list. Inputs that do not parse are
 * skipped (the tool refused them too); a snapshot whose items are all completed gives an empty
 * list, as the tool stores it.
 */
export function todosFromTranscript(messages: readonly Message[]): readonly TodoItem[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    for (let blockIndex = message.content.length - 1; blockIndex >= 0; blockIndex -= 1) {
      const block = message.content[blockIndex];
      if (block?.type !== 'tool_use' || block.name !== 'TodoWrite') continue;
      const parsed = todoWriteInputSchema.safeParse(block.input);
      if (!parsed.success) continue;
      const { todos } = parsed.data;
      return todos.length > 0 && todos.every((todo) => todo.status === 'completed') ? [] : todos;
    }
  }
  return [];
}
