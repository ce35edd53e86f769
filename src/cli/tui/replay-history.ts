import { summarizeInput } from '../../contract/define-tool.js';
import { INTERRUPTED_BY_USER_TEXT, RUN_ABORTED_TEXT } from '../../execution/outcome-text.js';
import type { ToolCallOutcome } from '../../execution/types.js';
import { MISSING_RESULT_TEXT } from '../../messages/repair-pairing.js';
import type { Message, ToolResultBlock } from '../../messages/types.js';
import { resultPlainText } from './result-text.js';
import type { TranscriptAction } from './transcript-state.js';

const INTERRUPTED_TEXTS: ReadonlySet<string> = new Set([
  INTERRUPTED_BY_USER_TEXT,
  RUN_ABORTED_TEXT,
  MISSING_RESULT_TEXT,
]);

/**
 * How a replayed call ended, read from its result: interrupted (the person, an abort, or no
 * result at all), refused (a permission or a hook), failed, or done.
 */
export function replayedOutcome(result: ToolResultBlock | undefined): ToolCallOutcome {
  if (result === undefined) return { status: 'aborted', cause: 'interrupt' };
  if (!result.is_error) return { status: 'success', isError: false };
  const text = resultPlainText(result.content).trim();
  if (INTERRUPTED_TEXTS.has(text)) return { status: 'aborted', cause: 'interrupt' };
  if (/^<tool_use_error>(Permission to use |A PreToolUse hook)/.test(text))
    return { status: 'denied', message: '', reason: { kind: 'default', message: 'refused' } };
  return { status: 'failed', message: 'failed' };
}

/**
 * The actions that redraw a resumed session's history: its prompts, the assistant's text, and each
 * call with its outcome (done, failed, refused or interrupted, from its result). Pure; the rows are what the person
 * saw, summarized, never the results' model text.
 */
export function replayHistory(
  messages: readonly Message[],
  now: number,
  /** The tool's own one-line summary of an input (`Bash sleep 30`), when the host knows the tool. */
  describeInput?: (toolName: string, input: unknown) => string | undefined,
): TranscriptAction[] {
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
  }
  const actions: TranscriptAction[] = [];
  let turnOpen = false;
  const endTurn = () => {
    if (turnOpen) actions.push({ type: 'turn-end', outcome: 'success' });
    turnOpen = false;
  };
  for (const message of messages) {
    if (message.role === 'user') {
      const text =
        typeof message.content === 'string'
          ? message.content
          : message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
      const hasResults =
        typeof message.content !== 'string' && message.content.some((block) => block.type === 'tool_result');
      if (text.trim() !== '' && !hasResults) {
        endTurn();
        actions.push({ type: 'prompt-submit', text });
        turnOpen = true;
      }
      continue;
    }
    turnOpen = true;
    actions.push({
      type: 'loop-event',
      now,
      event: {
        type: 'request-start',
        turn: 0,
        request: { model: '', system: '', messages: [], tools: [], maxTokens: 0 },
      },
    });
    for (const block of message.content) {
      if (block.type === 'text' && block.text !== '')
        actions.push({ type: 'loop-event', now, event: { type: 'text-delta', text: block.text } });
      if (block.type !== 'tool_use') continue;
      actions.push({
        type: 'loop-event',
        now,
        event: {
          type: 'tool-call-queue',
          toolUseId: block.id,
          toolName: block.name,
          summary: describeInput?.(block.name, block.input) ?? summarizeInput(block.input, 100),
        },
      });
      const outcome = replayedOutcome(results.get(block.id));
      const result = results.get(block.id) ?? {
        type: 'tool_result',
        tool_use_id: block.id,
        content: '',
        is_error: true,
      };
      actions.push({
        type: 'loop-event',
        now,
        event: {
          type: 'tool-call-end',
          durationMs: 0,
          record: { toolUseId: block.id, toolName: block.name, input: block.input, outcome, result },
        },
      });
    }
  }
  endTurn();
  return actions;
}
