import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import { ToolplaneError } from '../../errors/index.js';
import { getUnparseableInput, type Message } from '../../messages/types.js';
import { ProviderError } from '../provider-error.js';
import { createScriptedProvider } from './scripted-provider.js';

function request(messages: readonly Message[], toolNames: readonly string[] = ['Read']): ModelRequest {
  return {
    model: 'scripted-model',
    system: 'be brief',
    messages,
    tools: toolNames.map((name) => ({ name, description: name, input_schema: { type: 'object' } })),
    maxTokens: 1000,
  };
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function failure(iterable: AsyncIterable<ModelStreamEvent>): Promise<unknown> {
  try {
    await collect(iterable);
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail');
}

const signal = new AbortController().signal;
const hello: readonly Message[] = [{ role: 'user', content: 'hello' }];

function answer(results: readonly { id: string; text: string; isError?: boolean }[]): Message[] {
  return [
    ...hello,
    {
      role: 'assistant',
      content: results.map((result) => ({ type: 'tool_use' as const, id: result.id, name: 'Read', input: {} })),
    },
    {
      role: 'user',
      content: results.map((result) => ({
        type: 'tool_result' as const,
        tool_use_id: result.id,
        content: result.text,
        ...(result.isError === true ? { is_error: true } : {}),
      })),
    },
  ];
}

describe('createScriptedProvider', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-scripted-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('streams text in several deltas and tool inputs as JSON deltas, then the whole message', async () => {
    const provider = createScriptedProvider({
      turns: [
        {
          content: [
            { type: 'text', text: 'Let me read both files now.' },
            { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/tmp/a.txt' } },
            { type: 'tool_use', name: 'Read', input: { file_path: '/tmp/b.txt' } },
          ],
          usage: { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 3 },
        },
      ],
    });
    const events = await collect(provider.stream(request(hello), signal));
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('Let me read both files now.');
    const deltas = events.flatMap((event) =>
      event.type === 'tool-input-delta' && event.id === 'a' ? [event.partialJson] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.join(''))).toEqual({ file_path: '/tmp/a.txt' });
    const completes = events.flatMap((event) => (event.type === 'tool-use-complete' ? [event.block] : []));
    expect(completes.map((block) => block.id)).toEqual(['a', 'toolu_script_1_3']);
    const last = events.at(-1);
    expect(last?.type).toBe('message-complete');
    if (last?.type !== 'message-complete') return;
    expect(last.stopReason).toBe('tool_use');
    expect(last.usage).toEqual({ inputTokens: 12, outputTokens: 7, cacheReadInputTokens: 3 });
    expect(last.message.content).toHaveLength(3);
    expect(provider.requests).toHaveLength(1);
    expect(provider.turnsPlayed).toBe(1);
  });

  it('wraps a malformed input_json as an unparseable input instead of failing', async () => {
    const provider = createScriptedProvider({
      turns: [{ content: [{ type: 'tool_use', id: 'bad', name: 'Read', input_json: '{"file_path": "/x' }] }],
    });
    const events = await collect(provider.stream(request(hello), signal));
    const complete = events.find((event) => event.type === 'tool-use-complete');
    expect(complete?.type === 'tool-use-complete' && getUnparseableInput(complete.block.input)).toBe(
      '{"file_path": "/x',
    );
  });

  it('ends with end_turn when the turn has no tool call, and honours an explicit stop_reason', async () => {
    const provider = createScriptedProvider({
      turns: [{ content: [{ type: 'text', text: 'done' }] }, { content: [], stop_reason: 'max_tokens' }],
    });
    const first = (await collect(provider.stream(request(hello), signal))).at(-1);
    const second = (await collect(provider.stream(request(hello), signal))).at(-1);
    expect(first?.type === 'message-complete' && first.stopReason).toBe('end_turn');
    expect(second?.type === 'message-complete' && second.stopReason).toBe('max_tokens');
  });

  it('plays a turn whose expectations the request meets', async () => {
    const provider = createScriptedProvider({
      turns: [
        {
          content: [{ type: 'text', text: 'ok' }],
          expect: {
            tool_results: ['b', 'a'],
            errors: ['b'],
            includes: ['contents of a', 'hello'],
            excludes: ['secret'],
            tools: ['Read'],
            no_tools: ['Bash'],
          },
        },
      ],
    });
    const messages = answer([
      { id: 'a', text: 'contents of a' },
      { id: 'b', text: 'File does not exist.', isError: true },
    ]);
    const events = await collect(provider.stream(request(messages), signal));
    expect(events.at(-1)?.type).toBe('message-complete');
  });

  it('fails with SCRIPT_MISMATCH listing every difference precisely', async () => {
    const provider = createScriptedProvider({
      turns: [
        {
          content: [{ type: 'text', text: 'ok' }],
          expect: {
            tool_results: ['a', 'c'],
            errors: ['a'],
            includes: ['needle'],
            excludes: ['hello'],
            tools: ['Edit'],
            no_tools: ['Read'],
          },
        },
      ],
    });
    const messages = answer([
      { id: 'a', text: 'fine' },
      { id: 'b', text: 'boom', isError: true },
    ]);
    const error = await failure(provider.stream(request(messages), signal));
    expect(error).toBeInstanceOf(ToolplaneError);
    expect((error as ToolplaneError).code).toBe('SCRIPT_MISMATCH');
    const message = (error as Error).message;
    expect(message).toContain('the request for turn 1 does not match its expect');
    expect(message).toContain('tool_result ids: expected "a", "c", got "a", "b"; missing "c"; unexpected "b"');
    expect(message).toContain('tool_result "a" should have is_error true but does not: "fine"');
    expect(message).toContain('tool_result "b" should not be an error but has is_error true: "boom"');
    expect(message).toContain('text "needle" is in no user message or tool result');
    expect(message).toContain('text "hello" should not be in the request but is');
    expect(message).toContain('tools[] lacks "Edit"; it has "Read"');
    expect(message).toContain('tools[] should not contain "Read" but does');
  });

  it('reports an expected error result that is absent', async () => {
    const provider = createScriptedProvider({ turns: [{ content: [], expect: { errors: ['zz'] } }] });
    const error = await failure(provider.stream(request(hello), signal));
    expect((error as Error).message).toContain('tool_result "zz" should be an error result but is absent');
  });

  it('fails clearly once the script is exhausted', async () => {
    const provider = createScriptedProvider({ turns: [{ content: [{ type: 'text', text: 'only' }] }] });
    await collect(provider.stream(request(hello), signal));
    const error = await failure(provider.stream(request(hello), signal));
    expect((error as ToolplaneError).code).toBe('SCRIPT_MISMATCH');
    expect((error as Error).message).toContain(
      'the script is exhausted: all 1 turns were played, but request 2 arrived',
    );
  });

  it('rejects an invalid in-memory turn at creation, naming the turn and the field', () => {
    expect(() => createScriptedProvider({ turns: [{ content: [] }, { content: [{ type: 'tool_use' }] }] })).toThrow(
      /turn 2 is not a valid scripted turn:[\s\S]*content/,
    );
    expect(() => createScriptedProvider({ turns: [{ content: [], expect: { tool_result: ['a'] } }] })).toThrow(
      /Unrecognized key: "tool_result"/,
    );
  });

  it('reads a JSONL script file, skipping blank lines, and names the line of a mismatch', async () => {
    const path = join(folder, 'demo.jsonl');
    const lines = [
      JSON.stringify({ content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] }),
      '',
      JSON.stringify({ content: [{ type: 'text', text: 'bye' }], expect: { tool_results: ['t1'] } }),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const provider = createScriptedProvider({ path });
    expect(provider.turnCount).toBeUndefined();
    await collect(provider.stream(request(hello), signal));
    expect(provider.turnCount).toBe(2);
    const error = await failure(provider.stream(request(hello), signal));
    expect((error as Error).message).toContain(`the request for ${path} line 3 does not match its expect`);
    expect((error as Error).message).toContain('tool_result ids: expected "t1", got (none)');
  });

  it('names the line of invalid JSON or an invalid turn in a script file', async () => {
    const path = join(folder, 'broken.jsonl');
    await writeFile(path, `${JSON.stringify({ content: [] })}\n{"content": [\n`);
    const error = await failure(createScriptedProvider({ path }).stream(request(hello), signal));
    expect((error as ToolplaneError).code).toBe('SCRIPT_MISMATCH');
    expect((error as Error).message).toContain(`${path} line 2 is not valid JSON`);
    await writeFile(path, `${JSON.stringify({ content: [], stop_reason: 'finished' })}\n`);
    const invalid = await failure(createScriptedProvider({ path }).stream(request(hello), signal));
    expect((invalid as Error).message).toContain(`${path} line 1 is not a valid scripted turn`);
    expect((invalid as Error).message).toContain('stop_reason');
  });

  it('fails clearly when the script file does not exist', async () => {
    const path = join(folder, 'missing.jsonl');
    const error = await failure(createScriptedProvider({ path }).stream(request(hello), signal));
    expect((error as ToolplaneError).code).toBe('SCRIPT_MISMATCH');
    expect((error as Error).message).toContain(`cannot read script ${path}`);
  });

  it('replays the assistant messages of a recorded transcript in order, tolerating a torn last line', async () => {
    const path = join(folder, 'session.jsonl');
    const lines = [
      { type: 'session-start', sessionId: 's1' },
      { type: 'message', message: { role: 'user', content: 'read a' } },
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan', signature: 'sig' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'r1', name: 'Read', input: { __toolplane_unparseable_input__: '{"file' } },
          ],
        },
      },
      {
        type: 'message',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r1', content: 'x' }] },
      },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] } },
    ].map((line) => JSON.stringify(line));
    await writeFile(path, `${lines.join('\n')}\n{"type":"message","mess`);
    const provider = createScriptedProvider({ path });
    const first = await collect(provider.stream(request(hello), signal));
    const firstDone = first.at(-1);
    expect(firstDone?.type === 'message-complete' && firstDone.message.content.map((block) => block.type)).toEqual([
      'thinking',
      'text',
      'tool_use',
    ]);
    const tool = first.find((event) => event.type === 'tool-use-complete');
    expect(tool?.type === 'tool-use-complete' && getUnparseableInput(tool.block.input)).toBe('{"file');
    const second = await collect(provider.stream(request(hello), signal));
    expect(second.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')).toBe('All done.');
    expect(provider.turnCount).toBe(2);
    await expect(failure(provider.stream(request(hello), signal))).resolves.toMatchObject({ code: 'SCRIPT_MISMATCH' });
  });

  it('rejects a corrupt line in the middle of a transcript', async () => {
    const path = join(folder, 'corrupt.jsonl');
    await writeFile(path, `{"type":"message","message":{"role":"user","content":"hi"}}\n{oops\n{"type":"end"}\n`);
    const error = await failure(createScriptedProvider({ path }).stream(request(hello), signal));
    expect((error as Error).message).toContain(`${path} line 2 is not valid JSON`);
  });

  it('stops with an aborted ProviderError when the signal fires mid-stream', async () => {
    const provider = createScriptedProvider({
      turns: [{ content: [{ type: 'text', text: 'a long answer to stream' }] }],
    });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of provider.stream(request(hello), controller.signal)) {
        seen.push(event);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toHaveLength(1);
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).kind).toBe('aborted');
  });

  it("waits a turn's delay_ms before streaming it, and an abort during the wait ends it with nothing streamed", async () => {
    const provider = createScriptedProvider({
      turns: [
        { delay_ms: 60_000, content: [{ type: 'text', text: 'never streamed' }] },
        { delay_ms: 1, content: [{ type: 'text', text: 'after a short wait' }] },
      ],
    });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const waiting = (async () => {
      for await (const event of provider.stream(request(hello), controller.signal)) seen.push(event);
    })();
    // The abort comes while the first turn still waits: its minute-long delay must not hold it.
    setTimeout(() => controller.abort(), 10);
    const caught = await waiting.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).kind).toBe('aborted');
    expect(seen).toEqual([]);
    const next = await collect(provider.stream(request(hello), signal));
    expect(next.at(-1)?.type).toBe('message-complete');
  });

  it('rejects a delay_ms that is not a whole number of milliseconds up to a minute', () => {
    expect(() => createScriptedProvider({ turns: [{ delay_ms: -1, content: [] }] })).toThrow(/delay_ms/);
    expect(() => createScriptedProvider({ turns: [{ delay_ms: 120_000, content: [] }] })).toThrow(/delay_ms/);
  });
});
