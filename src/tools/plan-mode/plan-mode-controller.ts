import type { PermissionMode } from '../../contract/permission.js';
import { defineService } from '../../contract/services.js';

/** Called with the new mode after every switch. */
export type PermissionModeListener = (mode: PermissionMode, previous: PermissionMode) => void;

/**
 * Switches the session's permission mode into plan mode and back. The host registers one per
 * session under {@link PLAN_MODE_CONTROLLER} and feeds `mode` into the permission decisions of
 * later calls (`ToolCallContext.permissionMode`).
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
  /** The session's mode at start. Default `default`. */
  readonly initialMode?: PermissionMode;
};

/** Creates an in-memory plan-mode controller. */
export function createPlanModeController(options: CreatePlanModeControllerOptions = {}): PlanModeController {
  let current: PermissionMode = options.initialMode ?? 'default';
  let beforePlan: PermissionMode = current === 'plan' ? 'default' : current;
  const listeners = new Set<PermissionModeListener>();

  const switchTo = (next: PermissionMode) => {
    const previous = current;
    if (next === previous) return;
    current = next;
    for (const listener of listeners) listener(next, previous);
  };

  return {
    mode: () => current,
    enter() {
      const left = current;
      if (current !== 'plan') beforePlan = current;
      switchTo('plan');
      return left;
    },
    exit(target) {
      if (current !== 'plan') return current;
      switchTo(target && target !== 'plan' ? target : beforePlan);
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
