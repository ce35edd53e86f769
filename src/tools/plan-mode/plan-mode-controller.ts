import type { PermissionMode } from '../../contract/permission.js';
import {
  createPermissionModeStore,
  type PermissionModeListener,
  type PermissionModeStore,
} from '../../contract/permission-mode-store.js';
import { defineService } from '../../contract/services.js';

export type { PermissionModeListener };

/**
 * Switches the session's permission mode into plan mode and back. The host registers one per
 * session under {@link PLAN_MODE_CONTROLLER}; it reads and writes the session's mode store, which
 * the permission decisions of later calls read too.
 */
export type PlanModeController = {
  /** The session's current permission mode. */
  mode(): PermissionMode;
  /** Enters plan mode, remembering the mode to return to. Returns the mode it left. */
  enter(): PermissionMode;
  /**
   * Leaves plan mode for `target`, or for the mode the session had before it entered plan mode.
   * Returns the new mode. Outside plan mode it changes nothing.
   */
  exit(target?: PermissionMode): PermissionMode;
  /** Subscribes to mode switches; returns the unsubscribe function. */
  subscribe(listener: PermissionModeListener): () => void;
};

/** The service key for the session's plan-mode controller. */
export const PLAN_MODE_CONTROLLER = defineService<PlanModeController>('plan-mode-controller');

/** Options for {@link createPlanModeController}. */
export type CreatePlanModeControllerOptions = {
  /** The session's mode store; default a new one starting at `initialMode`. */
  readonly store?: PermissionModeStore;
  /** The mode at start when no store is given. Default `default`. */
  readonly initialMode?: PermissionMode;
};

/** Creates a plan-mode controller over the session's mode store. */
export function createPlanModeController(options: CreatePlanModeControllerOptions = {}): PlanModeController {
  const store = options.store ?? createPermissionModeStore(options.initialMode ?? 'default');
  let beforePlan: PermissionMode = store.get() === 'plan' ? 'default' : store.get();
  return {
    mode: () => store.get(),
    enter() {
      const left = store.get();
      if (left !== 'plan') beforePlan = left;
      store.set('plan');
      return left;
    },
    exit(target) {
      if (store.get() !== 'plan') return store.get();
      store.set(target && target !== 'plan' ? target : beforePlan);
      return store.get();
    },
    subscribe: (listener) => store.subscribe(listener),
  };
}
