import { randomUUID } from 'node:crypto';
import type { LoopEvent } from '../../session/index.js';
import { apiMessage } from './sdk-messages.js';
import { apiStopReason } from './sdk-usage.js';

type StreamedEvent = Extract<
  LoopEvent,
  { type: 'text-delta' | 'tool-use-start' | 'tool-input-delta' | 'assistant-message' | 'retry' }
>;

/**
 * `--include-partial-messages`: a response as the Messages API streams it (message_start, then
 * each block's start, deltas and stop, message_delta, message_stop), each wrapped as the Agent
 * SDK's `stream_event`. Built from the loop's deltas, so it works alike for every provider. A
 * retried attempt's events stop where it failed; the retry starts a new message.
 */
export function createPartialEvents(context: {
  readonly messageId: () => string;
  readonly model: () => string;
  readonly sessionId: () => string;
}) {
  let started = false;
  let index = -1;
  let open: 'text' | 'tool_use' | undefined;
  // Each tool_use block's index by its id: a server that streams parallel calls interleaves their input.
  let toolIndex = new Map<string, number>();
  const wrap = (event: object) => ({
    type: 'stream_event' as const,
    event,
    parent_tool_use_id: null,
    uuid: randomUUID(),
    session_id: context.sessionId(),
  });
  const zero = { inputTokens: 0, outputTokens: 0 };
  const begin = (out: object[]) => {
    if (started) return;
    started = true;
    index = -1;
    open = undefined;
    toolIndex = new Map();
    out.push(
      wrap({ type: 'message_start', message: apiMessage(context.messageId(), context.model(), [], undefined, zero) }),
    );
  };
  // A text block ends when the next block starts; tool_use blocks end with the message, since a
  // server may interleave the input of parallel calls.
  const close = (out: object[]) => {
    if (open === 'text') out.push(wrap({ type: 'content_block_stop', index }));
    open = undefined;
  };
  const closeAll = (out: object[]) => {
    close(out);
    for (const at of [...toolIndex.values()].sort((a, b) => a - b))
      out.push(wrap({ type: 'content_block_stop', index: at }));
    toolIndex = new Map();
  };
  const openBlock = (out: object[], kind: 'text' | 'tool_use', block: object) => {
    close(out);
    index += 1;
    open = kind;
    out.push(wrap({ type: 'content_block_start', index, content_block: block }));
  };
  return {
    /** The stream events `event` adds (none for events that are not part of a response). */
    of(event: StreamedEvent): object[] {
      const out: object[] = [];
      switch (event.type) {
        case 'text-delta':
          begin(out);
          if (open !== 'text') openBlock(out, 'text', { type: 'text', text: '', citations: null });
          out.push(wrap({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: event.text } }));
          break;
        case 'tool-use-start':
          begin(out);
          openBlock(out, 'tool_use', { type: 'tool_use', id: event.id, name: event.name, input: {} });
          toolIndex.set(event.id, index);
          break;
        case 'tool-input-delta': {
          const at = toolIndex.get(event.id);
          if (at !== undefined)
            out.push(
              wrap({
                type: 'content_block_delta',
                index: at,
                delta: { type: 'input_json_delta', partial_json: event.partialJson },
              }),
            );
          break;
        }
        case 'retry':
          closeAll(out);
          started = false;
          break;
        case 'assistant-message':
          begin(out);
          closeAll(out);
          out.push(
            wrap({
              type: 'message_delta',
              delta: {
                stop_reason: apiStopReason(event.stopReason),
                stop_sequence: null,
                stop_details: null,
                container: null,
              },
              usage: {
                cache_creation_input_tokens: event.usage.cacheCreationInputTokens ?? 0,
                cache_read_input_tokens: event.usage.cacheReadInputTokens ?? 0,
                fallback_credit: null,
                input_tokens: event.usage.inputTokens,
                iterations: null,
                output_tokens: event.usage.outputTokens,
                output_tokens_details: null,
                server_tool_use: null,
              },
              context_management: null,
            }),
            wrap({ type: 'message_stop' }),
          );
          started = false;
          break;
      }
      return out;
    },
  };
}
