import type { ToolCallOutcome, ToolCallRecord } from '../../execution/types.js';
import { reasonForPeople, withoutModelAdvice } from './reason-for-people.js';
import { describeResult } from './result-text.js';
import type { CallPhase, CallView } from './transcript-state.js';

/** The phase and the words for people that a call's outcome maps to. */
export function describeOutcome(outcome: ToolCallOutcome): { readonly phase: CallPhase; readonly detail?: string } {
  switch (outcome.status) {
    case 'success':
      return outcome.isError ? { phase: 'failed', detail: 'the tool reported a failure' } : { phase: 'done' };
    case 'unknown-tool':
      return { phase: 'failed', detail: 'no tool of that name' };
    case 'refused':
    case 'invalid-input':
    case 'validation-failed':
    case 'failed':
      return { phase: 'failed', detail: outcome.message };
    case 'timeout':
      return { phase: 'failed', detail: `timed out after ${outcome.timeoutMs} ms` };
    case 'hook-blocked':
      return {
        phase: 'denied',
        detail: withoutModelAdvice(
          outcome.hook ? `blocked by hook ${outcome.hook}: ${outcome.message}` : outcome.message,
        ),
      };
    case 'denied':
      return { phase: 'denied', detail: reasonForPeople(outcome.reason) };
    case 'cancelled':
      return { phase: 'cancelled', detail: `cancelled because ${outcome.byToolUseId} failed` };
    case 'aborted':
      return { phase: 'interrupted' };
  }
}

/**
 * A call's row once it has its result: its phase, the result as people read it, and, for a
 * failure, the error in the tool's own words (the text the model got, cleaned), falling back to
 * the outcome's description when the result has no text. The elapsed time runs from when the
 * call started running in this view (after any approval wait), `now` being the end; a call that
 * never started here (a replay) keeps the plane's `durationMs`.
 */
export function finishCall(
  call: CallView,
  end: { readonly record: ToolCallRecord; readonly durationMs: number; readonly now: number },
): CallView {
  const view = describeOutcome(end.record.outcome);
  const result = describeResult(end.record.result);
  const detail = view.phase === 'failed' && result.text !== '' ? result.text : view.detail;
  return {
    ...call,
    phase: view.phase,
    durationMs: call.startedAt !== undefined ? Math.max(0, end.now - call.startedAt) : end.durationMs,
    result,
    ...(detail !== undefined ? { detail } : {}),
  };
}
