import type { CallApproval, PermissionMode } from '../contract/permission.js';
import type { Services } from '../contract/services.js';
import type { ToolCallContext, ToolProgress } from '../contract/tool.js';

/**
 * The context of one call, with its abort signal created only when something reads it: most
 * calls finish without anyone looking at the signal, and an AbortController per call is a
 * measurable share of the plane's overhead. Aborting before the signal exists is remembered.
 */
export class CallControl implements ToolCallContext {
  readonly toolUseId: string;
  readonly cwd: string;
  readonly sessionId: string;
  readonly agentId: string;
  readonly permissionMode: PermissionMode;
  readonly services: Services;
  readonly reportProgress: (progress: ToolProgress) => void;
  /** How the call was approved; the gate chain sets it just before the call runs. */
  approval: CallApproval | undefined;
  /** True once the call was stopped (aborted, timed out, cancelled). */
  stopped = false;
  #controller: AbortController | undefined;
  #reason: unknown;

  constructor(fields: {
    readonly toolUseId: string;
    readonly cwd: string;
    readonly sessionId: string;
    readonly agentId: string;
    readonly permissionMode: PermissionMode;
    readonly services: Services;
    readonly reportProgress: (progress: ToolProgress) => void;
  }) {
    this.toolUseId = fields.toolUseId;
    this.cwd = fields.cwd;
    this.sessionId = fields.sessionId;
    this.agentId = fields.agentId;
    this.permissionMode = fields.permissionMode;
    this.services = fields.services;
    this.reportProgress = fields.reportProgress;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.stopped) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
