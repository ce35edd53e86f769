export {
  createTodoWriteTool,
  mapTodoWrite,
  todoWriteInputSchema,
  type TodoWriteInput,
  type TodoWriteResult,
} from './todo-write-tool.js';
export {
  TODO_STORE,
  createTodoStore,
  type TodoStore,
  type TodoItem,
  type TodoStatus,
  type TodoChange,
  type TodoListener,
} from './todo-store.js';
export { TODO_WRITE_PROMPT } from './todo-write-prompt.js';
export { todosFromTranscript } from './todos-from-transcript.js';
