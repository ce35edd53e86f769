import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { TODO_STORE, type TodoItem } from './todo-store.js';
import { TODO_WRITE_PROMPT } from './todo-write-prompt.js';

const todoItemSchema = z.strictObject({
  content: z.string().describe('The step, in the imperative.'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().describe('The step in the present continuous, shown while in progress.'),
});

/** The TodoWrite tool's input, with the reference system's names. */
export const todoWriteInputSchema = z.strictObject({
  todos: z.array(todoItemSchema).describe('The whole, updated todo list.'),
});

/** A parsed TodoWrite input. */
export type TodoWriteInput = z.infer<typeof todoWriteInputSchema>;

/** What a TodoWrite call produced. */
export type TodoWriteResult =
  | {
      readonly kind: 'written';
      /** The list as the model sent it. */
      readonly todos: readonly TodoItem[];
      readonly previous: readonly TodoItem[];
      /** Every item was completed, so the stored list was cleared. */
      readonly cleared: boolean;
    }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Creates the TodoWrite tool. It replaces the calling agent's list (`context.agentId`) in the
 * {@link TODO_STORE} service, which the host must register. A list whose items are all completed
 * is stored as empty.
 */
export function createTodoWriteTool(): Tool<TodoWriteInput, TodoWriteResult> {
  return defineBuiltinTool<TodoWriteInput, TodoWriteResult>('TodoWrite', {
    name: 'TodoWrite',
    services: [TODO_STORE],
    inputSchema: todoWriteInputSchema,
    prompt: TODO_WRITE_PROMPT,
    searchHint: 'todo list plan steps progress tasks',
    // It touches only the session's own list; asking a person about it would be noise.
    checkPermissions: () => ({
      behavior: 'allow',
      reason: { kind: 'tool', message: 'TodoWrite only updates the agent\u2019s own todo list' },
    }),
    validateInput(input) {
      const problem = findProblem(input.todos);
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    async call(input, context) {
      const store = context.services.get(TODO_STORE);
      if (!store) {
        return {
          kind: 'failed',
          message:
            'The todo list is not available in this session (no todo store). Keep track of the steps in your replies instead.',
        };
      }
      // A finished list is cleared, as the reference does: nothing is left to show as active.
      const allDone = input.todos.length > 0 && input.todos.every((todo) => todo.status === 'completed');
      const previous = store.replace(context.agentId, allDone ? [] : input.todos);
      return { kind: 'written', todos: input.todos, previous, cleared: allDone };
    },
    mapResult: mapTodoWrite,
    describeInput: (input) => `${input.todos.length} todo${input.todos.length === 1 ? '' : 's'}`,
  });
}

/** Maps a TodoWrite result for the model: a brief confirmation, nothing more. */
export function mapTodoWrite(result: TodoWriteResult): MappedResult {
  if (result.kind === 'failed') return { content: result.message, isError: true };
  if (result.cleared) {
    return {
      content: `All ${result.todos.length} items are completed; the todo list is cleared. Start a new list when a new multi-step task begins.`,
    };
  }
  const open = result.todos.filter((todo) => todo.status !== 'completed').length;
  const summary =
    result.todos.length === 0
      ? 'The todo list is now empty.'
      : `${result.todos.length} items, ${open} not yet completed.`;
  return {
    content: `Todo list updated: ${summary} Keep it current: mark each item in_progress when you start it and completed as soon as it is done.`,
  };
}

function findProblem(todos: readonly TodoItem[]): string | undefined {
  const inProgress = todos.filter((todo) => todo.status === 'in_progress');
  if (inProgress.length > 1) {
    return `${inProgress.length} items are in_progress (${inProgress.map((todo) => JSON.stringify(todo.content)).join(', ')}); at most one may be. Keep the one you are working on in_progress and set the others to pending or completed.`;
  }
  const blank = todos.findIndex((todo) => todo.content.trim() === '' || todo.activeForm.trim() === '');
  if (blank !== -1) return `Item ${blank + 1} has an empty content or activeForm; give every item both.`;
  const seen = new Set<string>();
  for (const todo of todos) {
    const key = todo.content.trim();
    if (seen.has(key)) return `The item ${JSON.stringify(key)} appears twice; each step should appear once.`;
    seen.add(key);
  }
  return undefined;
}
