import type { ServiceRegistry } from '../contract/services.js';
import type { Message } from '../messages/types.js';
import { lastTodoWriteInput, type Session } from '../loop/session-store.js';
import { createResultStore, type ResultStore } from '../results/result-store.js';
import { createSpillFolder, SPILL_FOLDER } from '../tools/bash/spill-folder.js';
import { createFileStateStore, fileStateService, type FileStateStore } from '../tools/file-state/file-state-store.js';
import type { TodoItem, TodoStore } from '../tools/todo-write/todo-store.js';

/**
 * Everything that belongs to one conversation: its transcript, its history, the store and spill
 * folder of its oversized results, the files it has read and its todo list. A session holds one
 * and replaces it as one piece (resume, clear); compaction replaces only the history, so saved
 * results and reads stay valid.
 */
export type Conversation = {
  readonly transcript: Session;
  readonly messages: readonly Message[];
  readonly resultStore: ResultStore;
  /** Reads of another conversation never vouch for an edit in this one. */
  readonly fileState: FileStateStore;
  /** The todo list it starts with (rebuilt from the history); the session's todo store holds it from then on. */
  readonly todos: readonly TodoItem[];
};

/** A conversation on `transcript` with `messages` so far (empty for a new one). */
export function openConversation(transcript: Session, messages: readonly Message[] = []): Conversation {
  return {
    transcript,
    messages,
    resultStore: createResultStore({ directory: transcript.resultsDirectory }),
    fileState: createFileStateStore(),
    todos: todosFrom(messages),
  };
}

/**
 * Makes `conversation` the one the tools see: its read-file state, its spill folder and its todo
 * list replace the previous conversation's in the session's services.
 */
export function installConversation(conversation: Conversation, services: ServiceRegistry, todoStore: TodoStore): void {
  services.set(fileStateService, conversation.fileState);
  services.set(SPILL_FOLDER, createSpillFolder({ path: conversation.transcript.resultsDirectory }));
  todoStore.replace('main', [...conversation.todos]);
}

/**
 * The main agent's todo list as the last TodoWrite that did not fail left it; a list whose items
 * are all completed is done with, and comes back empty.
 */
export function todosFrom(messages: readonly Message[]): readonly TodoItem[] {
  const input = lastTodoWriteInput(messages) as { todos?: unknown } | undefined;
  const todos = input && Array.isArray(input.todos) ? (input.todos as TodoItem[]) : [];
  return todos.every((todo) => todo.status === 'completed') ? [] : todos;
}
