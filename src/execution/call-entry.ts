import type { CallControl } from './call-control.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCallRecord } from './types.js';

/** One call of a run, from queued to answered. */
export type CallEntry = {
  readonly prepared: PreparedCall;
  state: 'queued' | 'running' | 'done';
  /** Made when the call starts. */
  control: CallControl | undefined;
  /** The call's time limit, armed just before its code runs. */
  timer: ReturnType<typeof setTimeout> | undefined;
  startedAt: number;
  /** Set once the call is answered. */
  record: ToolCallRecord | undefined;
};

/** A call that has not started yet. */
export function queuedEntry(prepared: PreparedCall): CallEntry {
  return { prepared, state: 'queued', control: undefined, timer: undefined, startedAt: 0, record: undefined };
}
