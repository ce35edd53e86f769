import { defineService } from '../../contract/services.js';

/** Where a todo item is. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One item of an agent's todo list, with the reference system's field names. */
export type TodoItem = {
  /** What to do, in the imperative ("Run the tests"). */
  readonly content: string;
  readonly status: TodoStatus;
  /** The same in the present continuous, shown while it is in progress ("Running the tests"). */
  readonly activeForm: string;
};

/** A change of one agent's list. */
export type TodoChange = {
  readonly agentId: string;
  readonly todos: readonly TodoItem[];
  readonly previous: readonly TodoItem[];
};

/** Called after every replacement of a list. */
export type TodoListener = (change: TodoChange) => void;

/**
 * The todo lists of a session, one per agent (`main` and each subagent). The host registers one
 * under {@link TODO_STORE} and reads or subscribes to it to show people the lists.
 */
export type TodoStore = {
  /** The agent's current list (empty when it has none). */
  get(agentId: string): readonly TodoItem[];
  /** Replaces the agent's whole list; returns the previous one. */
  replace(agentId: string, todos: readonly TodoItem[]): readonly TodoItem[];
  /** Every agent that has a list, with its list. */
  entries(): ReadonlyArray<readonly [agentId: string, todos: readonly TodoItem[]]>;
  /** Subscribes to replacements; returns the unsubscribe function. */
  subscribe(listener: TodoListener): () => void;
};

/** The service key for the session's todo store (required by TodoWrite). */
export const TODO_STORE = defineService<TodoStore>('todo-store');

/** Creates an in-memory todo store. Lists are copied and frozen, so callers cannot alter them. */
export function createTodoStore(): TodoStore {
  const lists = new Map<string, readonly TodoItem[]>();
  const listeners = new Set<TodoListener>();
  return {
    get: (agentId) => lists.get(agentId) ?? [],
    replace(agentId, todos) {
      const previous = lists.get(agentId) ?? [];
      const copy = Object.freeze(todos.map((todo) => Object.freeze({ ...todo })));
      lists.set(agentId, copy);
      for (const listener of listeners) listener({ agentId, todos: copy, previous });
      return previous;
    },
    entries: () => [...lists.entries()],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
