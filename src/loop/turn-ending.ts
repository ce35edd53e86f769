import { describeError } from '../errors/toolplane-error.js';
import type { AssistantMessage, Message } from '../messages/types.js';
import type { LoopEvent, QueryOptions } from './types.js';

/** The final assistant text of a message. */
export function assistantText(message: AssistantMessage | undefined): string {
  if (!message) return '';
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** What the loop does when the model ended its turn without calling a tool. */
export type EndOfTurn =
  | { readonly kind: 'remind' | 'stop-hook'; readonly message: Message }
  | { readonly kind: 'fail'; readonly error: Error }
  | { readonly kind: 'done' };

/**
 * The end of a turn without tool calls: a run that must end with the required tool gets a
 * reminder (until its limit), a Stop hook may send the model on once, otherwise the run is done.
 */
export async function* endOfTurn(state: {
  readonly options: QueryOptions;
  readonly lastAssistant: AssistantMessage | undefined;
  readonly requiredInput: unknown;
  readonly reminders: number;
  readonly stopHookActive: boolean;
  readonly signal: AbortSignal;
}): AsyncGenerator<LoopEvent, EndOfTurn> {
  const { options } = state;
  const required = options.requiredTool;
  if (required && state.requiredInput === undefined) {
    if (state.reminders >= required.maxReminders)
      return {
        kind: 'fail',
        error: new Error(
          `The model ended without a successful ${required.name} call after ${state.reminders} reminders.`,
        ),
      };
    const text = `You must finish by calling the ${required.name} tool with input that matches its schema. Call it now.`;
    return { kind: 'remind', message: { role: 'user', content: [{ type: 'text', text }] } };
  }
  if (!options.hooks?.stop) return { kind: 'done' };
  let verdict: { readonly continueWith?: string } = {};
  try {
    verdict = await options.hooks.stop(
      { lastAssistantText: assistantText(state.lastAssistant), stopHookActive: state.stopHookActive },
      state.signal,
    );
  } catch (error) {
    // The model's answer is complete; a failing hook cannot take it away.
    yield { type: 'notice', message: `The Stop hook failed: ${describeError(error)}` };
  }
  // The hook hears that it already sent the model on once; a second time is not followed.
  if (verdict.continueWith === undefined || state.stopHookActive) return { kind: 'done' };
  const text = `Stop hook feedback: ${verdict.continueWith}`;
  return { kind: 'stop-hook', message: { role: 'user', content: [{ type: 'text', text }] } };
}
