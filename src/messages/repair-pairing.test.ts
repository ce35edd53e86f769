import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MISSING_RESULT_TEXT, repairPairing } from './repair-pairing.js';
import { normalizeMessages } from './normalize-messages.js';
import { unparseableInput, type Message, type ToolResultBlock } from './types.js';

const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'Echo', input: {} });
const result = (id: string, content = 'ok'): ToolResultBlock => ({ type: 'tool_result', tool_use_id: id, content });

describe('repairPairing', () => {
  it('leaves a valid history as it is', () => {
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'reading' }, use('a'), use('b')] },
      { role: 'user', content: [result('a'), result('b')] },
    ];
    const { messages, report } = repairPairing(history);
    expect(messages).toEqual(history);
    expect(report).toEqual({ synthesized: [], orphanResults: [], duplicates: [] });
  });

  it('returns the messages that need no change as the same objects, and new ones for those it changed', () => {
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'reading' }, use('a'), use('b')] },
      { role: 'user', content: [result('a'), result('b')] },
      { role: 'assistant', content: [use('c')] },
      { role: 'user', content: [{ type: 'text', text: 'no result for c' }] },
    ];
    const normalized = normalizeMessages(history, { toolReference: true });
    expect(normalized.slice(0, 4).every((message, index) => message === history[index])).toBe(true);
    const { messages } = repairPairing(normalized);
    expect(messages.slice(0, 4).every((message, index) => message === history[index])).toBe(true);
    expect(messages[4]).not.toBe(history[4]);
    expect(messages[4]).toMatchObject({ content: [{ tool_use_id: 'c', is_error: true }, { type: 'text' }] });
  });

  it('gives a tool_use without a result a synthetic error result', () => {
    const { messages, report } = repairPairing([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: [result('b'), { type: 'text', text: 'and then' }] },
    ]);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: MISSING_RESULT_TEXT, is_error: true },
        result('b'),
        { type: 'text', text: 'and then' },
      ],
    });
    expect(report.synthesized).toEqual(['a']);
  });

  it('answers a trailing assistant message that was cut off by a crash', () => {
    const { messages } = repairPairing([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('a')] },
    ]);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toMatchObject({ role: 'user', content: [{ tool_use_id: 'a', is_error: true }] });
  });

  it('drops results with no tool_use right before them, and empty messages', () => {
    const { messages, report } = repairPairing([
      { role: 'user', content: [result('ghost')] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [result('ghost2'), { type: 'text', text: 'next' }] },
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ]);
    expect(report.orphanResults).toEqual(['ghost', 'ghost2']);
  });

  it('keeps one tool_use and one result per id', () => {
    const { messages, report } = repairPairing([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('a'), use('a')] },
      { role: 'user', content: [result('a', 'first'), result('a', 'second')] },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a', 'third')] },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a', 'first')] },
    ]);
    expect(report.duplicates).toEqual(['a', 'a', 'a']);
    expect(report.orphanResults).toEqual(['a']);
  });

  it('always yields a history where each tool_use id has exactly one result right after it', () => {
    const block = fc.oneof(
      fc.constantFrom('a', 'b', 'c', 'd').map((id) => ({ kind: 'use' as const, id })),
      fc.constantFrom('a', 'b', 'c', 'd', 'x').map((id) => ({ kind: 'result' as const, id })),
      fc.constant({ kind: 'text' as const, id: '' }),
    );
    const history = fc.array(
      fc.record({
        role: fc.constantFrom('user' as const, 'assistant' as const),
        blocks: fc.array(block, { maxLength: 4 }),
      }),
      {
        maxLength: 8,
      },
    );
    fc.assert(
      fc.property(history, (raw) => {
        const input: Message[] = raw.map(({ role, blocks }) =>
          role === 'assistant'
            ? {
                role,
                content: blocks
                  .filter((b) => b.kind !== 'result')
                  .map((b) => (b.kind === 'use' ? use(b.id) : { type: 'text' as const, text: 't' })),
              }
            : {
                role,
                content: blocks
                  .filter((b) => b.kind !== 'use')
                  .map((b) => (b.kind === 'result' ? result(b.id) : { type: 'text' as const, text: 't' })),
              },
        );
        const { messages } = repairPairing(input);
        const seen = new Set<string>();
        for (let index = 0; index < messages.length; index++) {
          const message = messages[index]!;
          if (index > 0) expect(message.role).not.toBe(messages[index - 1]!.role);
          if (message.role === 'assistant') {
            const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
            for (const id of ids) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
            }
            if (ids.length === 0) continue;
            const next = messages[index + 1];
            expect(next?.role).toBe('user');
            const results =
              typeof next!.content === 'string'
                ? []
                : next!.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
            expect(results).toEqual(ids);
          } else if (typeof message.content !== 'string') {
            const previous = messages[index - 1];
            const allowedIds =
              previous?.role === 'assistant'
                ? previous.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
                : [];
            for (const b of message.content) if (b.type === 'tool_result') expect(allowedIds).toContain(b.tool_use_id);
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('normalizeMessages', () => {
  it('sends unparseable inputs as {} and puts results first', () => {
    const normalized = normalizeMessages(
      [
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'a', name: 'Echo', input: unparseableInput('{oops') },
            { type: 'text', text: '' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'note' }, result('a')] },
      ],
      { toolReference: true },
    );
    expect(normalized).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Echo', input: {} }] },
      { role: 'user', content: [result('a'), { type: 'text', text: 'note' }] },
    ]);
  });

  it('turns tool_reference blocks into text for providers that cannot take them', () => {
    const history: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 's', content: [{ type: 'tool_reference', tool_name: 'mcp__a__b' }] },
        ],
      },
    ];
    expect(normalizeMessages(history, { toolReference: true })[0]).toBe(history[0]);
    const plain = normalizeMessages(history, { toolReference: false });
    expect(plain[0]).not.toBe(history[0]);
    expect(plain[0]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 's',
          content: [
            { type: 'text', text: 'Tools loaded: mcp__a__b. Their full definitions are now in your tool list.' },
          ],
        },
      ],
    });
  });
});
