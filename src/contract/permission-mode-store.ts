import type { PermissionMode } from './permission.js';

/** Called after every change of mode, with the new and the previous mode. */
export type PermissionModeListener = (mode: PermissionMode, previous: PermissionMode) => void;

/**
 * The one place a session's permission mode is kept. The permission engine, plan mode and the
 * executor all read it here, so no copy can fall out of step.
 */
export type PermissionModeStore = {
  get(): PermissionMode;
  /** Sets the mode; listeners run only when it changes. */
  set(mode: PermissionMode): void;
  /** Subscribes to changes (for display); returns the unsubscribe function. */
  subscribe(listener: PermissionModeListener): () => void;
};

/** Creates an in-memory mode store starting at `initial`. */
export function createPermissionModeStore(initial: PermissionMode = 'default'): PermissionModeStore {
  let current = initial;
  const listeners = new Set<PermissionModeListener>();
  return {
    get: () => current,
    set(next) {
      const previous = current;
      if (next === previous) return;
      current = next;
      for (const listener of listeners) listener(next, previous);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
