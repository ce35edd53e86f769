import type { PermissionModeStore } from '../contract/permission-mode-store.js';
import type { ServiceRegistry } from '../contract/services.js';
import type { Message } from '../messages/types.js';
import { CONTEXT_RESULTS } from '../tools/read/unchanged-read.js';
import { createContextResults } from './context-results.js';
import { createShellState, SHELL_STATE } from '../tools/bash/shell-state.js';
import { createPlanModeController, PLAN_MODE_CONTROLLER } from '../tools/plan-mode/plan-mode-controller.js';
import { createTaskRegistry, TASK_REGISTRY, type TaskRegistry } from '../tools/tasks/task-registry.js';
import { createTodoStore, TODO_STORE, type TodoStore } from '../tools/todo-write/todo-store.js';

/**
 * Registers the services a session owns for its whole life: background tasks, the shell's
 * working folder, the todo store, plan mode (over the session's one mode store) and what the
 * current history holds (for unchanged re-reads, read from `messages` at each call). The
 * per-conversation ones (read-file state, spill folder) come with each conversation.
 */
export function installSessionServices(
  services: ServiceRegistry,
  session: { readonly modes: PermissionModeStore; readonly messages: () => readonly Message[] },
): { readonly todoStore: TodoStore; readonly taskRegistry: TaskRegistry } {
  const todoStore = createTodoStore();
  const taskRegistry = createTaskRegistry();
  services
    .set(TASK_REGISTRY, taskRegistry)
    .set(SHELL_STATE, createShellState())
    .set(TODO_STORE, todoStore)
    .set(PLAN_MODE_CONTROLLER, createPlanModeController({ store: session.modes }))
    .set(CONTEXT_RESULTS, createContextResults(session.messages));
  return { todoStore, taskRegistry };
}
