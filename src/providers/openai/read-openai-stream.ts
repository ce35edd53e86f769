import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelStreamEvent, StopReason, Usage } from '../../contract/provider.js';
import type { AssistantContentBlock, ToolUseBlock } from '../../messages/types.js';
import { parseToolInput } from '../parse-tool-input.js';
import { ProviderError } from '../provider-error.js';

type CallState = { id: string | undefined; name: string; args: string; started: boolean };

/** A chat completions `finish_reason` as a {@link StopReason}; `stop` with tool calls counts as `tool_use`. */
export function toStopReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
      // Some local servers end a tool-calling answer with `stop`.
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

function usageOf(usage: ChatCompletionChunk['usage']): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(typeof cached === 'number' ? { cacheReadInputTokens: cached } : {}),
  };
}

/**
 * Turns chat completion chunks into {@link ModelStreamEvent}s. Tool calls are told apart by their
 * `index`, so several calls may stream interleaved; a call starts once its name is known and
 * completes when the choice finishes, its arguments parsed (or wrapped as unparseable). Usage comes
 * from the final chunk when the server sends one. A stream without `finish_reason` throws.
 */
export async function* readOpenAIStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  options: { readonly provider: string },
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const calls = new Map<number, CallState>();
  const completed: ToolUseBlock[] = [];
  let text = '';
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  let lastIndex = -1;
  const indexById = new Map<string, number>();

  /**
   * The call a delta belongs to. Some local servers leave out `index`: then a new id starts a new
   * call and a delta without one continues the last call.
   */
  function indexOf(call: { readonly index?: number; readonly id?: string }): number {
    if (typeof call.index === 'number') return call.index;
    if (typeof call.id === 'string' && call.id !== '') {
      const known = indexById.get(call.id);
      if (known !== undefined) return known;
      const next = Math.max(-1, ...calls.keys()) + 1;
      indexById.set(call.id, next);
      return next;
    }
    return Math.max(0, lastIndex);
  }

  function* start(state: CallState): Generator<ModelStreamEvent, void, undefined> {
    state.id ??= `call_${randomUUID()}`;
    state.started = true;
    yield { type: 'tool-use-start', id: state.id, name: state.name };
    if (state.args !== '') yield { type: 'tool-input-delta', id: state.id, partialJson: state.args };
  }

  for await (const chunk of chunks) {
    usage = usageOf(chunk.usage) ?? usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const delta = choice.delta;
    if (typeof delta.content === 'string' && delta.content !== '') {
      text += delta.content;
      yield { type: 'text-delta', text: delta.content };
    }
    for (const call of delta.tool_calls ?? []) {
      const index = indexOf(call);
      lastIndex = index;
      let state = calls.get(index);
      if (state === undefined) {
        state = { id: undefined, name: '', args: '', started: false };
        calls.set(index, state);
      }
      if (!state.started && typeof call.id === 'string' && call.id !== '') state.id = call.id;
      if (!state.started && typeof call.function?.name === 'string') state.name += call.function.name;
      const piece = call.function?.arguments;
      if (typeof piece === 'string' && piece !== '') {
        state.args += piece;
        if (state.started && state.id !== undefined) {
          yield { type: 'tool-input-delta', id: state.id, partialJson: piece };
        }
      }
      if (!state.started && state.name !== '') yield* start(state);
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined && finishReason === undefined) {
      finishReason = choice.finish_reason;
      for (const index of [...calls.keys()].sort((a, b) => a - b)) {
        const state = calls.get(index);
        if (state === undefined) continue;
        if (!state.started) yield* start(state);
        const block: ToolUseBlock = {
          type: 'tool_use',
          id: state.id ?? '',
          name: state.name,
          input: parseToolInput(state.args),
        };
        completed.push(block);
        yield { type: 'tool-use-complete', block };
      }
    }
  }
  if (finishReason === undefined) {
    throw new ProviderError({
      provider: options.provider,
      kind: 'stream',
      message: 'the response stream ended before a finish_reason; the answer is incomplete',
      // Retried only while none of its tool calls reached the caller (streamWithRetries decides).
      retryable: true,
    });
  }
  const content: AssistantContentBlock[] = [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...completed];
  yield {
    type: 'message-complete',
    message: { role: 'assistant', content },
    stopReason: toStopReason(finishReason, completed.length > 0),
    usage: usage ?? { inputTokens: 0, outputTokens: 0 },
  };
}
