import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider, ModelStreamEvent } from '../contract/provider.js';
import { startMockAnthropicServer } from '../testing/mock-anthropic-server.js';
import type { MockModelServer } from '../testing/mock-model-server.js';
import { startMockOpenAIServer } from '../testing/mock-openai-server.js';
import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { createOpenAIProvider } from './openai/openai-provider.js';
import { planTurn, splitIntoChunks, type ScriptedTurn } from './scripted/scripted-turn.js';

const json = fc.jsonValue({ maxDepth: 3 });
const objectInput = fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 5 });
const unicodeText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 });

/** Turns an OpenAI-compatible server can carry: text first, then tool calls (its message has no order between them). */
const turnArbitrary: fc.Arbitrary<ScriptedTurn> = fc
  .record({
    text: fc.option(unicodeText, { nil: undefined }),
    calls: fc.array(
      fc.record({
        name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,15}$/),
        input: fc.oneof(
          objectInput.map((input) => ({ input })),
          fc.string({ maxLength: 30 }).map((raw) => ({ input_json: `{"broken": ${JSON.stringify(raw)}` })),
        ),
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ text, calls }) => ({
    content: [
      ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
      ...calls.map((call, index) => ({
        type: 'tool_use' as const,
        id: `call_${index}`,
        name: call.name,
        ...call.input,
      })),
    ],
  }));

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('splitIntoChunks', () => {
  it('loses nothing and never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 6 }), (text, parts) => {
        const chunks = splitIntoChunks(text, parts);
        expect(chunks.join('')).toBe(text);
        expect(chunks.length).toBeLessThanOrEqual(parts);
        // A lone surrogate at either end of a chunk would mean a character was cut in two.
        for (const chunk of chunks) expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
      }),
    );
  });
});

describe.each([
  [
    'anthropic',
    startMockAnthropicServer,
    (baseURL: string) => createAnthropicProvider({ apiKey: 'k', baseURL, env: {} }),
  ],
  ['openai', startMockOpenAIServer, (baseURL: string) => createOpenAIProvider({ baseURL, env: {} })],
] as const)('%s provider round trip', (_name, start, create) => {
  let server: MockModelServer;
  let provider: ModelProvider;
  beforeAll(async () => {
    server = await start({ recordBodies: false });
    provider = create(server.baseURL);
  });
  afterAll(async () => {
    await server.close();
  });

  it('rebuilds exactly the scripted message from the wire, malformed inputs included', async () => {
    await fc.assert(
      fc.asyncProperty(turnArbitrary, async (turn) => {
        server.enqueue(turn);
        const events = await collect(
          provider.stream(
            { model: 'm', system: '', messages: [{ role: 'user', content: 'go' }], tools: [], maxTokens: 10 },
            new AbortController().signal,
          ),
        );
        const expected = planTurn(turn, 1);
        const done = events.at(-1);
        expect(done?.type === 'message-complete' && done.message).toEqual(expected.message);
        expect(done?.type === 'message-complete' && done.stopReason).toBe(expected.stopReason);
        const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
        expect(text).toBe(turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
        const completes = events.flatMap((event) => (event.type === 'tool-use-complete' ? [event.block] : []));
        expect(completes).toEqual(expected.message.content.filter((block) => block.type === 'tool_use'));
      }),
      { numRuns: 40 },
    );
  });
});
