import { describeReason } from '../contract/permission.js';
import type { ToolCallOutcome } from './types.js';

/** Wraps a message the way models are trained to read tool failures. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/** The model's result for a call the person interrupted. */
export const INTERRUPTED_BY_USER_TEXT = toolUseError(
  'The user interrupted this call before it finished. Wait for their next instruction.',
);

/** The model's result for a call whose run was aborted (a signal, a closing session). */
export const RUN_ABORTED_TEXT = toolUseError(
  'The run was aborted before this call finished; it may or may not have taken effect.',
);

/**
 * The text the model gets for an outcome that is not a success: what went wrong and what to do
 * next. Successes are mapped by their tool.
 */
export function outcomeText(outcome: Exclude<ToolCallOutcome, { status: 'success' }>, toolName: string): string {
  switch (outcome.status) {
    case 'refused':
      return toolUseError(`This call was refused before it ran: ${outcome.message}`);
    case 'unknown-tool':
      return toolUseError(
        `No tool named "${toolName}" is available. Call only the tools listed in this request, by their exact names.`,
      );
    case 'invalid-input':
      return toolUseError(
        `InputValidationError: the input for ${toolName} does not match its schema.\n${outcome.message}\nFix the input and call ${toolName} again.`,
      );
    case 'validation-failed':
      return toolUseError(outcome.message);
    case 'hook-blocked':
      return toolUseError(
        `A PreToolUse hook${outcome.hook ? ` (${outcome.hook})` : ''} blocked this call: ${outcome.message}`,
      );
    case 'denied':
      return toolUseError(
        `Permission to use ${toolName} was denied (${describeReason(outcome.reason)}). ${outcome.message}`.trim() +
          ' Do not retry the same call: change your approach, or ask the user how to proceed.',
      );
    case 'failed':
      return toolUseError(`Error: ${outcome.message}`);
    case 'timeout':
      return toolUseError(
        `${toolName} did not finish within ${outcome.timeoutMs} ms and was stopped. Try a narrower or faster request.`,
      );
    case 'cancelled':
      return toolUseError(
        `Cancelled: an earlier call in this message (${outcome.byToolUseId}) failed, and this call could depend on it, so it was not run. Check that failure, then send this call again if it still applies.`,
      );
    case 'aborted':
      return outcome.cause === 'interrupt' ? INTERRUPTED_BY_USER_TEXT : RUN_ABORTED_TEXT;
  }
}
