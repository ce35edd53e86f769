import { describe, expect, it } from 'vitest';
import { createPartialEvents } from './partial-events.js';

type Streamed = { type: string; index?: number; delta?: { type: string; partial_json?: string; text?: string } };

describe('partial message events', () => {
  const events = () => {
    let id = 0;
    return {
      partials: createPartialEvents({ messageId: () => `msg_${id}`, model: () => 'm', sessionId: () => 's' }),
      next: () => (id += 1),
    };
  };
  const kinds = (out: object[]) => out.map((line) => (line as { event: Streamed }).event);

  it('streams text, then parallel calls whose input interleaves, each delta under its own block', () => {
    const { partials } = events();
    const out = [
      ...partials.of({ type: 'text-delta', text: 'Looking' }),
      ...partials.of({ type: 'tool-use-start', id: 'a', name: 'Read' }),
      ...partials.of({ type: 'tool-use-start', id: 'b', name: 'Glob' }),
      ...partials.of({ type: 'tool-input-delta', id: 'a', partialJson: '{"file_path":' }),
      ...partials.of({ type: 'tool-input-delta', id: 'b', partialJson: '{"pattern":"*"}' }),
      ...partials.of({ type: 'tool-input-delta', id: 'a', partialJson: '"x"}' }),
      ...partials.of({
        type: 'assistant-message',
        message: { role: 'assistant', content: [] },
        stopReason: 'tool_use',
        usage: { inputTokens: 1, outputTokens: 2 },
      }),
    ];
    const streamed = kinds(out);
    expect(streamed.map((event) => `${event.type}${event.index === undefined ? '' : ` ${event.index}`}`)).toEqual([
      'message_start',
      'content_block_start 0',
      'content_block_delta 0',
      'content_block_stop 0',
      'content_block_start 1',
      'content_block_start 2',
      'content_block_delta 1',
      'content_block_delta 2',
      'content_block_delta 1',
      'content_block_stop 1',
      'content_block_stop 2',
      'message_delta',
      'message_stop',
    ]);
    const inputOf = (index: number) =>
      streamed
        .filter((event) => event.index === index && event.delta?.type === 'input_json_delta')
        .map((event) => event.delta!.partial_json)
        .join('');
    expect(JSON.parse(inputOf(1))).toEqual({ file_path: 'x' });
    expect(JSON.parse(inputOf(2))).toEqual({ pattern: '*' });
  });

  it('a retry ends the failed attempt; the next delta starts a new message from index 0', () => {
    const { partials, next } = events();
    partials.of({ type: 'text-delta', text: 'half' });
    const retry = kinds(
      partials.of({ type: 'retry', attempt: 1, maxRetries: 2, delayMs: 10, message: 'overloaded', status: 529 }),
    );
    expect(retry.map((event) => event.type)).toEqual(['content_block_stop']);
    next();
    const again = partials.of({ type: 'text-delta', text: 'whole' }) as {
      event: Streamed & { message?: { id: string } };
    }[];
    expect(again.map((line) => line.event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
    ]);
    expect(again[0]!.event.message!.id).toBe('msg_1');
    expect(again[1]!.event.index).toBe(0);
    // An input delta for a call this message never started is not attached to another block.
    expect(partials.of({ type: 'tool-input-delta', id: 'ghost', partialJson: '{}' })).toEqual([]);
  });
});
