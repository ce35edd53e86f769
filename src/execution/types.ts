import type { Approver, HookGate, PermissionGate } from '../contract/gates.js';
import type { DecisionReason, DenyDecision, PermissionMode } from '../contract/permission.js';
import type { Services } from '../contract/services.js';
import type { AnyTool, ToolProgress } from '../contract/tool.js';
import type { ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { ResultStore } from '../results/result-store.js';

/** How one call ended. Every status yields exactly one `tool_result`. */
export type ToolCallOutcome =
  /** The tool ran; `isError` when its own result reports a failure (a non-zero exit, …). */
  | { readonly status: 'success'; readonly isError: boolean }
  /** The plane refused the call before reading its input (nested too deeply, a reused id). */
  | { readonly status: 'refused'; readonly message: string }
  | { readonly status: 'unknown-tool' }
  | { readonly status: 'invalid-input'; readonly message: string }
  | { readonly status: 'validation-failed'; readonly message: string }
  | { readonly status: 'hook-blocked'; readonly hook: string | undefined; readonly message: string }
  | { readonly status: 'denied'; readonly message: string; readonly reason: DecisionReason }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'timeout'; readonly timeoutMs: number }
  /** An earlier call of the message failed and this call, not read-only, could depend on it. */
  | { readonly status: 'cancelled'; readonly byToolUseId: string }
  | { readonly status: 'aborted'; readonly cause: 'abort' | 'interrupt' };

export type ToolCallStatus = ToolCallOutcome['status'];

/** One finished call. */
export type ToolCallRecord = {
  readonly toolUseId: string;
  readonly toolName: string;
  /** The input as the model sent it. */
  readonly input: unknown;
  readonly outcome: ToolCallOutcome;
  readonly result: ToolResultBlock;
};

/** Events of one run, for the loop, the UI and traces. */
export type ToolRunEvent =
  | {
      readonly type: 'tool-call-queue';
      readonly toolUseId: string;
      readonly toolName: string;
      readonly summary: string;
    }
  | {
      readonly type: 'tool-call-start';
      readonly toolUseId: string;
      readonly toolName: string;
      /** Calls with the same batch number run in parallel. */
      readonly batch: number;
    }
  | { readonly type: 'tool-call-progress'; readonly toolUseId: string; readonly progress: ToolProgress }
  | {
      readonly type: 'permission-request';
      readonly toolUseId: string;
      readonly toolName: string;
      readonly summary: string;
      readonly message: string;
    }
  | {
      readonly type: 'permission-decision';
      readonly toolUseId: string;
      readonly behavior: 'allow' | 'deny' | 'ask';
      readonly reason: DecisionReason;
    }
  | { readonly type: 'tool-call-end'; readonly record: ToolCallRecord; readonly durationMs: number }
  | { readonly type: 'tool-call-duplicate'; readonly toolUseId: string };

/** Everything the plane needs to run calls. */
export type ToolExecutorOptions = {
  readonly pool: ToolPool;
  /** Default: the tool's own check; read-only calls allowed, everything else asks. */
  readonly permissions?: PermissionGate;
  /** Default: no hooks. */
  readonly hooks?: HookGate;
  /** A person who can answer `ask`. Without one (headless), `ask` is denied: fail-closed. */
  readonly approver?: Approver;
  readonly cwd: string;
  readonly sessionId: string;
  /** Default `main`. */
  readonly agentId?: string;
  readonly services?: Services;
  /** Read on every decision, since plan mode can switch it within a turn. Default `default`. */
  readonly getPermissionMode?: () => PermissionMode;
  /** Where oversized results are written; without one they are cut instead. */
  readonly resultStore?: ResultStore;
  /** Budget for all results of the message together, in characters. */
  readonly messageBudgetChars?: number;
  /**
   * A stopped call (aborted, timed out, cancelled) is answered at once, but holds its slot until its
   * code settles, so the next unsafe call does not overlap it; one that ignores its abort signal is
   * abandoned after this many ms. Default 1000.
   */
  readonly abandonAfterMs?: number;
  /** Parallel calls at most. Default 10. */
  readonly maxConcurrency?: number;
  /** False for a deferred tool whose schema was never sent: calling it asks the model to load it first. */
  readonly isSchemaLoaded?: (tool: AnyTool) => boolean;
  /** The turn's abort signal. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: ToolRunEvent) => void;
};

/** What a run produced, once every call has its result. */
export type ToolRunResult = {
  /** The user message carrying one `tool_result` per `tool_use`, in `tool_use` order. */
  readonly message: { readonly role: 'user'; readonly content: readonly ToolResultBlock[] };
  readonly records: readonly ToolCallRecord[];
  /** A hook asked to stop the turn after these calls (`continue: false`). */
  readonly stopReason?: string;
  /** The person chose "abort" in a permission dialog. */
  readonly abortedByUser: boolean;
};

/** A run of the calls of one assistant message; calls may be added as their blocks stream in. */
export type ToolExecutor = {
  /** Adds a call; it starts as soon as the scheduling rules allow. */
  add(block: ToolUseBlock): void;
  /** No more calls will be added. */
  close(): void;
  /** A person interrupted: cancel what may be cancelled (`interruptBehavior: 'cancel'`) and all queued calls. */
  interrupt(): void;
  /** Cancels everything. */
  abort(): void;
  /** Settles (never rejects) once `close()` was called and every call has its result. */
  readonly finished: Promise<ToolRunResult>;
};

/** A deny decision from the pre-check, kept for records. */
export type PreCheckDenial = DenyDecision;
