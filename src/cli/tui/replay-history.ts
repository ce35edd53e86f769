import { summarizeInput } from '../../contract/define-tool.js';
import type { Message, ToolResultBlock } from '../../messages/types.js';
import type { TranscriptAction } from './transcript-state.js';

/**
 * The actions that redraw a resumed session's history: its prompts, the assistant's text, and each
 * call with its outcome (success or failure, from its result). Pure; the rows are what the person
 * saw, summarized, never the results' model text.
 */
export function replayHistory(messages: readonly Message[], now: number): TranscriptAction[] {
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
          summary: summarizeInput(block.input, 100),
        },
      });
      const result = results.get(block.id) ?? {
        type: 'tool_result',
        tool_use_id: block.id,
        content: '',
        is_error: true,
      };
      const outcome = result.is_error
        ? { status: 'failed' as const, message: 'failed' }
        : { status: 'success' as const, isError: false };
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
