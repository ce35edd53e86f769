import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelStreamEvent, StopReason, Usage } from '../../contract/provider.js';
import type { AssistantContentBlock, ToolUseBlock } from '../../messages/types.js';
import { ProviderError } from '../provider-error.js';
import { parseToolInput } from '../parse-tool-input.js';

type BlockState =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  /** Server tool blocks and future block types: not part of the internal format, left out. */
  | { kind: 'other' };

const STOP_REASONS: ReadonlySet<string> = new Set<StopReason>([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
]);

/** The API's stop reason as a {@link StopReason}; reasons this version does not know become `other`. */
export function toStopReason(reason: string | null | undefined): StopReason {
  return typeof reason === 'string' && STOP_REASONS.has(reason) ? (reason as StopReason) : 'other';
}

function toolUseOf(state: Extract<BlockState, { kind: 'tool_use' }>): ToolUseBlock {
  const startsFilled =
    state.json === '' &&
    typeof state.startInput === 'object' &&
    state.startInput !== null &&
    Object.keys(state.startInput).length > 0;
  return {
    type: 'tool_use',
    id: state.id,
    name: state.name,
    input: startsFilled ? state.startInput : parseToolInput(state.json),
  };
}

function contentOf(blocks: ReadonlyMap<number, BlockState>): AssistantContentBlock[] {
  const content: AssistantContentBlock[] = [];
  for (const index of [...blocks.keys()].sort((a, b) => a - b)) {
    const state = blocks.get(index);
    switch (state?.kind) {
      case 'text':
        content.push({ type: 'text', text: state.text });
        break;
      case 'tool_use':
        content.push(toolUseOf(state));
        break;
      case 'thinking':
        content.push({ type: 'thinking', thinking: state.thinking, signature: state.signature });
        break;
      case 'redacted_thinking':
        content.push({ type: 'redacted_thinking', data: state.data });
        break;
      case 'other':
      case undefined:
        break;
    }
  }
  return content;
}

/**
 * Turns the Messages API's raw stream events into {@link ModelStreamEvent}s: text deltas, tool
 * calls (input assembled from `input_json_delta` fragments; text that is not JSON becomes an
 * unparseable input), and one `message-complete` at `message_stop` with the stop reason and usage
 * (cache tokens included). A stream that ends before `message_stop` throws a `ProviderError`.
 */
export async function* readAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  options: { readonly provider: string },
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const blocks = new Map<number, BlockState>();
  let usage: { -readonly [K in keyof Usage]: Usage[K] } = { inputTokens: 0, outputTokens: 0 };
  let stopReason: StopReason = 'other';
  for await (const event of events) {
    switch (event.type) {
      case 'message_start': {
        const start = event.message.usage;
        usage = {
          inputTokens: start.input_tokens,
          outputTokens: start.output_tokens,
          ...(typeof start.cache_read_input_tokens === 'number'
            ? { cacheReadInputTokens: start.cache_read_input_tokens }
            : {}),
          ...(typeof start.cache_creation_input_tokens === 'number'
            ? { cacheCreationInputTokens: start.cache_creation_input_tokens }
            : {}),
        };
        break;
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          blocks.set(event.index, { kind: 'text', text: block.text });
          if (block.text !== '') {
            yield { type: 'text-delta', text: block.text };
          }
        } else if (block.type === 'tool_use') {
          blocks.set(event.index, {
            kind: 'tool_use',
            id: block.id,
            name: block.name,
            json: '',
            startInput: block.input,
          });
          yield { type: 'tool-use-start', id: block.id, name: block.name };
        } else if (block.type === 'thinking') {
          blocks.set(event.index, { kind: 'thinking', thinking: block.thinking, signature: block.signature });
        } else if (block.type === 'redacted_thinking') {
          blocks.set(event.index, { kind: 'redacted_thinking', data: block.data });
        } else {
          blocks.set(event.index, { kind: 'other' });
        }
        break;
      }
      case 'content_block_delta': {
        const state = blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta' && state?.kind === 'text') {
          state.text += delta.text;
          yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta' && state?.kind === 'tool_use') {
          state.json += delta.partial_json;
          yield { type: 'tool-input-delta', id: state.id, partialJson: delta.partial_json };
        } else if (delta.type === 'thinking_delta' && state?.kind === 'thinking') {
          state.thinking += delta.thinking;
        } else if (delta.type === 'signature_delta' && state?.kind === 'thinking') {
          state.signature += delta.signature;
        }
        break;
      }
      case 'content_block_stop': {
        const state = blocks.get(event.index);
        if (state?.kind === 'tool_use') {
          yield { type: 'tool-use-complete', block: toolUseOf(state) };
        }
        break;
      }
      case 'message_delta': {
        stopReason = toStopReason(event.delta.stop_reason);
        const delta = event.usage;
        usage = {
          ...usage,
          outputTokens: delta.output_tokens,
          ...(typeof delta.input_tokens === 'number' ? { inputTokens: delta.input_tokens } : {}),
          ...(typeof delta.cache_read_input_tokens === 'number'
            ? { cacheReadInputTokens: delta.cache_read_input_tokens }
            : {}),
          ...(typeof delta.cache_creation_input_tokens === 'number'
            ? { cacheCreationInputTokens: delta.cache_creation_input_tokens }
            : {}),
        };
        break;
      }
      case 'message_stop':
        yield {
          type: 'message-complete',
          message: { role: 'assistant', content: contentOf(blocks) },
          stopReason,
          usage,
        };
        return;
      default:
        // Event types newer than this adapter (pings arrive filtered by the SDK) carry nothing we use.
        break;
    }
  }
  throw new ProviderError({
    provider: options.provider,
    kind: 'stream',
    message: 'the response stream ended before message_stop; the answer is incomplete',
    // Retried only while none of its tool calls reached the caller (streamWithRetries decides).
    retryable: true,
  });
}
