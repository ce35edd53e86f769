import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../../contract/provider.js';
import { getUnparseableInput } from '../../messages/types.js';
import { ProviderError } from '../provider-error.js';
import { readOpenAIStream, toStopReason } from './read-openai-stream.js';

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(delta: Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk {
  return {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

async function* from(chunks: readonly ChatCompletionChunk[]): AsyncGenerator<ChatCompletionChunk> {
  for (const item of chunks) {
    await Promise.resolve();
    yield item;
  }
}

async function read(chunks: readonly ChatCompletionChunk[]): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of readOpenAIStream(from(chunks), { provider: 'openai' })) events.push(event);
  return events;
}

describe('readOpenAIStream', () => {
  it('takes a whole tool call in one chunk without an id (Ollama style) and ends a stop with tool calls as tool_use', async () => {
    const events = await read([
      chunk({
        role: 'assistant',
        tool_calls: [{ index: 0, function: { name: 'Read', arguments: '{"file_path":"/a"}' } }],
      }),
      chunk({}, 'stop'),
    ]);
    const start = events[0];
    expect(start?.type).toBe('tool-use-start');
    const id = start?.type === 'tool-use-start' ? start.id : '';
    expect(id).toMatch(/^call_/);
    expect(events[1]).toEqual({ type: 'tool-input-delta', id, partialJson: '{"file_path":"/a"}' });
    expect(events[2]).toEqual({
      type: 'tool-use-complete',
      block: { type: 'tool_use', id, name: 'Read', input: { file_path: '/a' } },
    });
    const done = events.at(-1);
    expect(done?.type === 'message-complete' && done.stopReason).toBe('tool_use');
    expect(done?.type === 'message-complete' && done.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it('buffers arguments that arrive before the name and treats empty arguments as {}', async () => {
    const events = await read([
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'Edit', arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c2', function: { name: 'TodoRead' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(events.slice(0, 4)).toEqual([
      { type: 'tool-use-start', id: 'c1', name: 'Edit' },
      { type: 'tool-input-delta', id: 'c1', partialJson: '{"a":1}' },
      { type: 'tool-use-start', id: 'c2', name: 'TodoRead' },
      { type: 'tool-use-complete', block: { type: 'tool_use', id: 'c1', name: 'Edit', input: { a: 1 } } },
    ]);
    expect(events[4]).toEqual({
      type: 'tool-use-complete',
      block: { type: 'tool_use', id: 'c2', name: 'TodoRead', input: {} },
    });
  });

  it('tells calls apart by id when a server leaves out the index', async () => {
    const loose = (call: { id?: string; function: { name?: string; arguments?: string } }) =>
      chunk({ tool_calls: [call as unknown as ChatCompletionChunk.Choice.Delta.ToolCall] });
    const events = await read([
      loose({ id: 'x1', function: { name: 'Read', arguments: '{"a":' } }),
      loose({ function: { arguments: '1}' } }),
      loose({ id: 'x2', function: { name: 'Glob', arguments: '{}' } }),
      chunk({}, 'tool_calls'),
    ]);
    const completes = events.flatMap((event) => (event.type === 'tool-use-complete' ? [event.block] : []));
    expect(completes).toEqual([
      { type: 'tool_use', id: 'x1', name: 'Read', input: { a: 1 } },
      { type: 'tool_use', id: 'x2', name: 'Glob', input: {} },
    ]);
  });

  it('wraps malformed arguments and reads usage with cached tokens from the last chunk', async () => {
    const events = await read([
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'Read', arguments: '{"file_pa' } }] }),
      chunk({}, 'tool_calls'),
      {
        id: 'x',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [],
        usage: {
          prompt_tokens: 50,
          completion_tokens: 9,
          total_tokens: 59,
          prompt_tokens_details: { cached_tokens: 32 },
        },
      },
    ]);
    const complete = events.find((event) => event.type === 'tool-use-complete');
    expect(complete?.type === 'tool-use-complete' && getUnparseableInput(complete.block.input)).toBe('{"file_pa');
    const done = events.at(-1);
    expect(done?.type === 'message-complete' && done.usage).toEqual({
      inputTokens: 50,
      outputTokens: 9,
      cacheReadInputTokens: 32,
    });
  });

  it('fails, retryably, when the stream ends without a finish_reason (the retry loop decides by tool calls)', async () => {
    const events: ModelStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of readOpenAIStream(from([chunk({ content: 'partial' })]), { provider: 'openai' }))
        events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'partial' }]);
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).message).toContain('ended before a finish_reason');
    expect((caught as ProviderError).retryable).toBe(true);
    await expect(read([])).rejects.toMatchObject({ kind: 'stream', retryable: true });
  });

  it('maps finish reasons to stop reasons', () => {
    expect(toStopReason('tool_calls', true)).toBe('tool_use');
    expect(toStopReason('function_call', true)).toBe('tool_use');
    expect(toStopReason('stop', false)).toBe('end_turn');
    expect(toStopReason('length', false)).toBe('max_tokens');
    expect(toStopReason('content_filter', false)).toBe('refusal');
    expect(toStopReason('eos', false)).toBe('other');
  });
});
