import type { CallEntry } from './call-entry.js';
import type { ToolCallOutcome } from './types.js';

/** Why the whole run stops early: the turn's abort, or a person's interrupt (or "abort" in a dialog). */
export type RunStopCause = 'abort' | 'interrupt';

/** Why one call is stopped before it finished, and what it is answered with. */
export type CallStopCause =
  | { readonly kind: 'run-stopped'; readonly cause: RunStopCause }
  | { readonly kind: 'sibling-failed'; readonly byToolUseId: string }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  /** The chain itself rejected, which it must never do; the call is answered anyway. */
  | { readonly kind: 'internal-error'; readonly message: string };

type Failure = Exclude<ToolCallOutcome, { status: 'success' }>;

/** The outcome a stopped call is answered with. */
export function stopOutcome(cause: CallStopCause): Failure {
  switch (cause.kind) {
    case 'run-stopped':
      return { status: 'aborted', cause: cause.cause };
    case 'sibling-failed':
      return { status: 'cancelled', byToolUseId: cause.byToolUseId };
    case 'timeout':
      return { status: 'timeout', timeoutMs: cause.timeoutMs };
    case 'internal-error':
      return { status: 'failed', message: cause.message };
  }
}

/** Whether a finished call's outcome counts as a failure for cancelling its siblings. */
export function isFailure(outcome: ToolCallOutcome): boolean {
  return (
    outcome.status === 'failed' || outcome.status === 'timeout' || (outcome.status === 'success' && outcome.isError)
  );
}

/**
 * The cancel decision: whether the failure of `failed` (a call that ran and ended with `outcome`)
 * cancels `sibling`, a later call of the same message not answered yet: a failing call whose tool
 * sets `errorCancelsSiblings` cancels the unfinished calls after it that could depend on it.
 */
export function cancelsSibling(
  failed: { readonly entry: CallEntry; readonly outcome: ToolCallOutcome },
  sibling: CallEntry,
): boolean {
  return (
    sibling !== failed.entry &&
    sibling.state !== 'done' &&
    failed.entry.prepared.tool?.errorCancelsSiblings === true &&
    isFailure(failed.outcome) &&
    couldDependOnEarlierCalls(sibling)
  );
}

/**
 * Whether a call could depend on the calls before it: a tool that is not read-only for its input
 * (Bash, writes). Reads and searches, and calls whose input does not parse (they get their own
 * error), are independent and run on.
 */
function couldDependOnEarlierCalls(entry: CallEntry): boolean {
  const { tool, parsed } = entry.prepared;
  if (!tool || !parsed?.ok) return false;
  try {
    return !tool.isReadOnly(parsed.value);
  } catch {
    return true;
  }
}

/**
 * Whether a run stop reaches this unanswered call. An interrupt (`includeBlocking` false) spares a
 * running call whose tool's `interruptBehavior` is `block`; an abort reaches everything.
 */
export function runStopReaches(entry: CallEntry, includeBlocking: boolean): boolean {
  if (entry.state === 'done') return false;
  const blocks = entry.state === 'running' && entry.prepared.tool?.interruptBehavior === 'block';
  return !blocks || includeBlocking;
}

/** The run-wide stop state: whether the run was stopped and why, and what hooks and the person asked. */
export type RunStops = {
  /** Set once the run is stopped; an abort overrides an interrupt. */
  cause: RunStopCause | undefined;
  /** A hook asked to end the turn after this run (`continue: false`); the first reason is kept. */
  hookStopReason: string | undefined;
  /** The person chose "abort" in a permission dialog. */
  abortedByUser: boolean;
};

/** Records a run stop; an abort is never downgraded to an interrupt. */
export function recordRunStop(stops: RunStops, cause: RunStopCause): void {
  if (!stops.cause || cause === 'abort') stops.cause = cause;
}

/**
 * The call's time limit (the tool's `timeoutMs`), as the `onCallStart` of its gate chain: armed
 * just before the tool's code runs, so the time a person takes to answer does not count.
 */
export function armTimeLimit(
  entry: CallEntry,
  stopCall: (entry: CallEntry, cause: CallStopCause) => void,
): (() => void) | undefined {
  const timeoutMs = entry.prepared.tool?.timeoutMs;
  if (timeoutMs === undefined || timeoutMs <= 0) return undefined;
  return () => {
    if (entry.state === 'running')
      entry.timer = setTimeout(() => stopCall(entry, { kind: 'timeout', timeoutMs }), timeoutMs);
  };
}

/**
 * Stops the run when the turn's signal aborts (a signal aborted already stops it before any call
 * starts). Returns the function that stops listening, for when the run settles.
 */
export function listenForTurnAbort(
  signal: AbortSignal | undefined,
  run: { readonly stops: RunStops; readonly stopRun: () => void },
): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    run.stops.cause = 'abort';
    return () => {};
  }
  const onAbort = (): void => run.stopRun();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
