import type { HookEventName } from '../contract/hook-config.js';
import type { RuleSource } from '../contract/permission.js';
import type { HookOutput } from './parse-hook-output.js';

/** Seconds a command or http hook may run when its config names no timeout. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** Longest wait a timer can hold (2^31 − 1 ms); a longer one would fire at once. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** A hook's time limit in ms: its `timeout` in seconds (or the default), capped where timers can hold it. */
export function hookTimeoutMs(seconds: number | undefined, defaultSeconds: number): number {
  return Math.min((seconds ?? defaultSeconds) * 1000, LONGEST_TIMER_MS);
}

/**
 * The JSON a hook receives (stdin for command hooks, the argument of function hooks), in the
 * reference system's snake_case shape: `session_id`, `transcript_path`, `cwd`, `permission_mode`,
 * `hook_event_name`, and per event `tool_name`, `tool_input`, `tool_use_id`, `tool_response`,
 * `error`, `prompt`, `source`, `stop_hook_active`, ….
 */
export type HookInput = {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  readonly permission_mode: string;
  readonly hook_event_name: HookEventName;
  readonly [field: string]: unknown;
};

/** An in-process hook for library users: the same input and decision shape as command hooks. */
export type FunctionHook = {
  readonly event: HookEventName;
  /** Same matcher rules as settings hooks. */
  readonly matcher?: string;
  /** Names the hook in reasons and diagnostics. */
  readonly name: string;
  /** Milliseconds an asynchronous callback may take. Default 60 000. */
  readonly timeoutMs?: number;
  /**
   * A callback that throws or times out denies a PreToolUse call and a PermissionRequest (as the
   * reference's SDK callbacks do on timeout). Default true.
   */
  readonly failClosed?: boolean;
  readonly callback: (
    input: HookInput,
    signal: AbortSignal,
  ) => HookOutput | undefined | void | Promise<HookOutput | undefined | void>;
};

/** The outcome of one hook for one event, before hooks are aggregated. */
export type HookRun = {
  /** The command string, or the function hook's name. */
  readonly hook: string;
  readonly source: RuleSource | 'function';
  /**
   * `success`: ran and answered (maybe nothing); `blocking`: exit code 2; `error`: crashed,
   * non-zero exit, or unreadable output; `timeout`; `cancelled`: the signal aborted it.
   */
  readonly status: 'success' | 'blocking' | 'error' | 'timeout' | 'cancelled';
  readonly output?: HookOutput;
  /** Plain-text stdout of a successful command. */
  readonly text?: string;
  /** The block message (exit 2), or what went wrong. */
  readonly message?: string;
  /** Whether a failure of this hook must deny where a decision was needed. */
  readonly failClosed: boolean;
  /** A model answered (`prompt`, `agent` hooks): its allow grants nothing; deny, ask, rewrite and context count. */
  readonly advisory?: boolean;
};

/** Something a person (or the debug log) should learn about a hook run that did not block. */
export type HookDiagnostic = {
  readonly event: HookEventName;
  readonly hook: string;
  readonly source: RuleSource | 'function';
  readonly kind: 'error' | 'timeout' | 'ignored-output' | 'system-message' | 'stderr';
  readonly message: string;
};
