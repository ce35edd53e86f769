import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { AnyTool } from '../contract/tool.js';
import type { ModelProvider, ModelStreamEvent } from '../contract/provider.js';
import type { Message } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import { createResultStore } from '../results/result-store.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { sampleTools } from '../testing/sample-tools.js';
import { createStructuredOutputTool } from '../tools/structured-output/structured-output-tool.js';
import { query } from './query.js';
import { createDeferralTracker } from './deferral.js';
import type { LoopEvent, QueryOptions, QueryResult } from './types.js';

async function drive(options: QueryOptions): Promise<{ events: LoopEvent[]; result: QueryResult }> {
  const events: LoopEvent[] = [];
  const generator = query(options);
  for (;;) {
    const step = await generator.next();
    if (step.done) return { events, result: step.value };
    events.push(step.value);
  }
}

function base(
  provider: ModelProvider,
  extra: Partial<QueryOptions> = {},
  tools: readonly AnyTool[] = sampleTools,
): QueryOptions {
  const pool = assembleToolPool({
    builtins: tools.filter((t) => t.origin === 'builtin'),
    external: tools.filter((t) => t.origin === 'external'),
  });
  return {
    provider,
    system: 'test',
    messages: [{ role: 'user', content: 'go' }],
    getPool: () => pool,
    plane: { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's' },
    ...extra,
  };
}

function tool_use(id: string, name: string, input: unknown) {
  return { type: 'tool_use', id, name, input };
}

describe('query', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-loop-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('runs a multi-turn session with parallel calls, an unparseable input and a denied call', async () => {
    const provider = createScriptedProvider({
      turns: [
        {
          content: [
            { type: 'text', text: 'Two at once.' },
            tool_use('a', 'Echo', { text: 'one' }),
            tool_use('b', 'Echo', { text: 'two' }),
          ],
        },
        {
          expect: { tool_results: ['a', 'b'], includes: ['one', 'two'] },
          content: [
            { type: 'tool_use', id: 'c', name: 'Echo', input_json: '{"text": ' },
            tool_use('d', 'Fail', { message: 'x' }),
          ],
        },
        {
          expect: { tool_results: ['c', 'd'], errors: ['c', 'd'], includes: ['not valid JSON', 'denied'] },
          content: [{ type: 'text', text: 'Done.' }],
        },
      ],
    });
    const gate = createFakePermissionGate({
      decide: ({ tool }) =>
        tool.name === 'Fail'
          ? { behavior: 'deny', message: 'No failing.', reason: { kind: 'rule', rule: 'Fail', source: 'cli' } }
          : { behavior: 'allow', reason: { kind: 'default', message: 'ok' } },
    });
    const { events, result } = await drive(
      base(provider, { plane: { permissions: gate, cwd: '/tmp', sessionId: 's' } }),
    );
    expect(result.status).toBe('success');
    expect(result.text).toBe('Done.');
    expect(result.turns).toBe(3);
    expect(result.permissionDenials).toEqual([{ tool_name: 'Fail', tool_use_id: 'd', tool_input: { message: 'x' } }]);
    expect(events.filter((event) => event.type === 'tool-call-end')).toHaveLength(4);
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('starts a concurrency-safe call while the rest of the response still streams', async () => {
    const order: string[] = [];
    const gated: ModelProvider = {
      name: 'gated',
      defaultModel: 'm',
      capabilities: { toolReference: false, webSearch: false },
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        yield { type: 'tool-use-complete', block: { type: 'tool_use', id: 'a', name: 'Probe', input: {} } };
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('stream end');
        yield {
          type: 'message-complete',
          message: { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Probe', input: {} }] },
          stopReason: 'tool_use',
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const probe = defineTool({
      name: 'Probe',
      inputSchema: z.object({}),
      prompt: 'x',
      isConcurrencySafe: () => true,
      call: async () => {
        order.push('call');
        return 'probed';
      },
    });
    const { result } = await drive(base(gated, { maxTurns: 1 }, [probe]));
    expect(order).toEqual(['call', 'stream end']);
    expect(result.status).toBe('error_max_turns');
  });

  it('answers every tool_use when the stream fails after calls started', async () => {
    const failing: ModelProvider = {
      name: 'failing',
      defaultModel: 'm',
      capabilities: { toolReference: false, webSearch: false },
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        yield { type: 'text-delta', text: 'Sleeping' };
        yield {
          type: 'tool-use-complete',
          block: { type: 'tool_use', id: 'a', name: 'Sleep', input: { ms: 5_000, safe: true } },
        };
        throw new Error('connection reset');
      },
    };
    const { events, result } = await drive(base(failing));
    expect(result.status).toBe('error_during_execution');
    expect(result.error?.message).toBe('connection reset');
    const last = result.messages[result.messages.length - 1]!;
    expect(last).toMatchObject({ role: 'user', content: [{ tool_use_id: 'a', is_error: true }] });
    expect(events.some((event) => event.type === 'error')).toBe(true);
  });

  it('stops at max turns and when aborted', async () => {
    const looping = createScriptedProvider({
      turns: Array.from({ length: 5 }, (_, i) => ({ content: [tool_use(`t${i}`, 'Echo', { text: 'again' })] })),
    });
    expect((await drive(base(looping, { maxTurns: 2 }))).result.status).toBe('error_max_turns');
    const controller = new AbortController();
    controller.abort();
    expect(
      (await drive(base(createScriptedProvider({ turns: [] }), { signal: controller.signal }))).result.status,
    ).toBe('aborted');
  });

  it('spills a huge result to the session folder', async () => {
    const huge = defineTool({
      name: 'Huge',
      inputSchema: z.object({}),
      prompt: 'x',
      maxResultSizeChars: 10_000,
      call: async () => 'y'.repeat(50_000),
    });
    const provider = createScriptedProvider({
      turns: [
        { content: [tool_use('h', 'Huge', {})] },
        { expect: { includes: ['full output is saved in'] }, content: [{ type: 'text', text: 'ok' }] },
      ],
    });
    const store = createResultStore({ directory: join(folder, 'tool-results') });
    const { result } = await drive(
      base(
        provider,
        { plane: { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's', resultStore: store } },
        [huge],
      ),
    );
    expect(result.status).toBe('success');
    expect(await readFile(join(folder, 'tool-results', 'h.txt'), 'utf8')).toHaveLength(50_000);
  });

  it('requires the structured-output tool, reminding the model once, and returns its input', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'number' } },
      required: ['answer'],
      additionalProperties: false,
    };
    const provider = createScriptedProvider({
      turns: [
        { content: [{ type: 'text', text: 'The answer is 42.' }] },
        {
          expect: { includes: ['You must finish by calling the StructuredOutput tool'] },
          content: [tool_use('s1', 'StructuredOutput', { answer: 'forty-two' })],
        },
        {
          expect: { errors: ['s1'], includes: ['"answer" must be number'] },
          content: [tool_use('s2', 'StructuredOutput', { answer: 42 })],
        },
      ],
    });
    const { result } = await drive(
      base(provider, { requiredTool: { name: 'StructuredOutput', maxReminders: 2 } }, [
        ...sampleTools,
        createStructuredOutputTool(schema),
      ]),
    );
    expect(result.status).toBe('success');
    expect(result.requiredToolInput).toEqual({ answer: 42 });
    expect(result.turns).toBe(3);
  });

  it('fails a structured-output run that never delivers', async () => {
    const provider = createScriptedProvider({
      turns: [{ content: [{ type: 'text', text: 'no' }] }, { content: [{ type: 'text', text: 'still no' }] }],
    });
    const { result } = await drive(
      base(provider, { requiredTool: { name: 'StructuredOutput', maxReminders: 1 } }, [
        createStructuredOutputTool({ type: 'object' }),
      ]),
    );
    expect(result.status).toBe('error_during_execution');
    expect(result.error?.message).toMatch(/without a successful StructuredOutput call/);
  });

  it('announces deferred tools by name, refuses them until loaded, and sends them once discovered', async () => {
    const deferral = createDeferralTracker({ isDeferred: (tool) => tool.origin === 'external' });
    const finder = defineTool({
      name: 'Finder',
      inputSchema: z.object({}),
      prompt: 'x',
      isConcurrencySafe: () => true,
      call: async () => 'found',
      mapResult: () => ({ content: [{ type: 'tool_reference', tool_name: 'mcp__sample__get_weather' }] }),
    });
    const provider = createScriptedProvider({
      turns: [
        {
          expect: {
            includes: ['<deferred-tools>', '- mcp__sample__get_weather'],
            no_tools: ['mcp__sample__get_weather'],
          },
          content: [tool_use('w1', 'mcp__sample__get_weather', { city: 'Oslo' })],
        },
        {
          expect: { errors: ['w1'], includes: ['select:mcp__sample__get_weather'] },
          content: [tool_use('f', 'Finder', {})],
        },
        {
          expect: { tools: ['mcp__sample__get_weather'] },
          content: [tool_use('w2', 'mcp__sample__get_weather', { city: 'Oslo' })],
        },
        {
          expect: { tool_results: ['w2'], errors: [], includes: ['Oslo'] },
          content: [{ type: 'text', text: 'sunny' }],
        },
      ],
    });
    const { result } = await drive(base(provider, { deferral }, [...sampleTools, finder]));
    expect(result.status).toBe('success');
    const weather = provider.requests[2]!.tools.find((t) => t.name === 'mcp__sample__get_weather');
    expect(weather?.defer_loading).toBe(true);
  });

  it('compacts when the context nears its limit and keeps the history valid', async () => {
    const provider = createScriptedProvider({
      turns: [
        { usage: { input_tokens: 950 }, content: [tool_use('a', 'Echo', { text: 'first' })] },
        { usage: { input_tokens: 950 }, content: [tool_use('b', 'Echo', { text: 'second' })] },
        { expect: { includes: ['SUMMARY OF EARLIER WORK'] }, content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const history: Message[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: [{ type: 'text', text: 'old answer' }] },
      { role: 'user', content: 'go' },
    ];
    const summaries: number[] = [];
    const { events, result } = await drive(
      base(provider, {
        messages: history,
        compaction: {
          contextWindowTokens: 1_000,
          keepRecent: 2,
          summarize: async (messages) => {
            summaries.push(messages.length);
            return 'SUMMARY OF EARLIER WORK';
          },
        },
      }),
    );
    expect(result.error?.message ?? '').toBe('');
    expect(result.status).toBe('success');
    expect(summaries.length).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'compact')).toBe(true);
    const first = result.messages[0]!;
    expect(first.role).toBe('user');
    expect(JSON.stringify(first)).toContain('SUMMARY OF EARLIER WORK');
    expect(JSON.stringify(result.messages)).not.toContain('old answer');
  });
});

describe('findCompactionCut', () => {
  it('cuts before an assistant message or a plain user message, never before tool results', async () => {
    const { findCompactionCut } = await import('./compact-history.js');
    const use = (id: string) => ({
      role: 'assistant' as const,
      content: [{ type: 'tool_use' as const, id, name: 'Echo', input: {} }],
    });
    const result = (id: string) => ({
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, tool_use_id: id, content: 'x' }],
    });
    const history: Message[] = [
      { role: 'user', content: 'go' },
      use('a'),
      result('a'),
      use('b'),
      result('b'),
      use('c'),
      result('c'),
    ];
    expect(findCompactionCut(history, 2)).toBe(5);
    expect(findCompactionCut(history, 3)).toBe(3);
    expect(findCompactionCut(history, 7)).toBe(1);
    expect(findCompactionCut([{ role: 'user', content: 'only' }], 6)).toBe(-1);
  });

  it('aborts running calls when the consumer stops iterating', async () => {
    let aborted = false;
    const wait = defineTool({
      name: 'Wait',
      inputSchema: z.object({}),
      prompt: 'x',
      call: async (_input, context) => {
        const signal = context.signal;
        context.reportProgress({ kind: 'waiting' });
        await new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        });
        return 'stopped';
      },
    });
    const provider = createScriptedProvider({
      turns: [{ content: [tool_use('w', 'Wait', {})] }, { content: [{ type: 'text', text: 'x' }] }],
    });
    for await (const event of query(base(provider, {}, [wait]))) {
      if (event.type === 'tool-call-progress') break;
    }
    expect(aborted).toBe(true);
  });

  it('reports the partial assistant message of a failed stream before the results of its calls', async () => {
    const provider: ModelProvider = {
      name: 'failing',
      defaultModel: 'm',
      capabilities: { toolReference: false, webSearch: false },
      async *stream(): AsyncIterable<ModelStreamEvent> {
        yield { type: 'text-delta', text: 'Let me look.' };
        yield { type: 'tool-use-complete', block: { type: 'tool_use', id: 'e', name: 'Echo', input: { text: 'x' } } };
        throw new Error('connection reset');
      },
    };
    const { events, result } = await drive(base(provider));
    expect(result.status).toBe('error_during_execution');
    const kinds = events
      .map((event) => event.type)
      .filter((type) => type === 'assistant-message' || type === 'tool-results');
    expect(kinds).toEqual(['assistant-message', 'tool-results']);
    const assistant = events.find((event) => event.type === 'assistant-message');
    expect(assistant).toMatchObject({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'e' },
        ],
      },
    });
  });
});

describe('a failing PreCompact hook', () => {
  it('is a notice: the run goes on with the full history', async () => {
    const provider = createScriptedProvider({
      turns: [
        { usage: { input_tokens: 950 }, content: [tool_use('a', 'Echo', { text: 'first' })] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const { events, result } = await drive(
      base(provider, {
        messages: [
          { role: 'user', content: 'old question' },
          { role: 'assistant', content: [{ type: 'text', text: 'old answer' }] },
          { role: 'user', content: 'go' },
        ],
        hooks: {
          preCompact: async () => {
            throw new Error('hook exploded');
          },
        },
        compaction: { contextWindowTokens: 1_000, keepRecent: 2, summarize: async () => 'SUMMARY' },
      }),
    );
    expect(result.status).toBe('success');
    expect(result.text).toBe('done');
    expect(events.some((event) => event.type === 'notice' && event.message.includes('hook exploded'))).toBe(true);
  });
});

describe('a failing Stop hook', () => {
  it('is a notice: the run still ends with its result', async () => {
    const provider = createScriptedProvider({ turns: [{ content: [{ type: 'text', text: 'done' }] }] });
    const { events, result } = await drive(
      base(provider, {
        hooks: {
          stop: async () => {
            throw new Error('stop hook exploded');
          },
        },
      }),
    );
    expect(result.status).toBe('success');
    expect(result.text).toBe('done');
    expect(events.some((event) => event.type === 'notice' && event.message.includes('stop hook exploded'))).toBe(true);
  });
});

describe('auto-compaction with nothing to cut', () => {
  it('neither asks for a summary nor fires the PreCompact hook', async () => {
    const { maybeCompact } = await import('./auto-compact.js');
    let hookCalls = 0;
    let summaries = 0;
    const generator = maybeCompact({
      messages: [{ role: 'user', content: 'only message' }],
      lastInputTokens: 10_000,
      compaction: {
        contextWindowTokens: 1_000,
        summarize: async () => {
          summaries++;
          return 'x';
        },
      },
      hooks: {
        preCompact: async () => {
          hookCalls++;
        },
      },
      signal: new AbortController().signal,
    });
    const step = await generator.next();
    expect(step).toEqual({ done: true, value: undefined });
    expect(hookCalls).toBe(0);
    expect(summaries).toBe(0);
  });
});
