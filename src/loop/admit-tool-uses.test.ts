import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { ModelRequest } from '../contract/provider.js';
import { MAX_TOOL_INPUT_DEPTH, REFUSED_INPUT_KEY, type Message, type ToolResultBlock } from '../messages/index.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import type { ScriptedTurn } from '../providers/scripted/scripted-turn.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { query } from './query.js';
import type { QueryResult } from './types.js';

/** A tool that takes any JSON value and reports how deep it was, counting its runs. */
function nestTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'Nest',
    inputSchema: z.object({ label: z.string(), value: z.unknown().optional() }),
    prompt: 'Takes any value.',
    isConcurrencySafe: () => true,
    call: async (input) => {
      runs.push(input.label);
      return `ran ${input.label}, ${JSON.stringify(input).length} characters`;
    },
  });
  return { tool, runs };
}

/** `levels` nested arrays around 1, as JSON text: `[[1]]` is 2 levels. */
function nestedArrays(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}

async function run(turns: ScriptedTurn[]) {
  const { tool, runs } = nestTool();
  const pool = assembleToolPool({ builtins: [tool], external: [] });
  const requests: ModelRequest[] = [];
  const recorded: Message[] = [];
  const generator = query({
    provider: createScriptedProvider({ turns }),
    system: 'test',
    messages: [{ role: 'user', content: 'go' }],
    getPool: () => pool,
    plane: { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's' },
    recorder: { message: (message) => recorded.push(message) },
  });
  let step = await generator.next();
  while (!step.done) {
    if (step.value.type === 'request-start') requests.push(step.value.request);
    step = await generator.next();
  }
  const result: QueryResult = step.value;
  return { result, requests, runs, recorded };
}

/** What the Messages API insists on: unique tool_use ids, each answered once in the next message. */
function expectValidPairing(request: ModelRequest): void {
  const ids = new Set<string>();
  request.messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const uses = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    for (const id of uses) {
      expect(ids.has(id), `tool_use id ${id} appears twice`).toBe(false);
      ids.add(id);
    }
    if (uses.length === 0) return;
    const next = request.messages[index + 1];
    const answered =
      next && typeof next.content !== 'string'
        ? next.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []))
        : [];
    expect(answered.sort()).toEqual([...uses].sort());
  });
}

function resultFor(messages: readonly Message[], id: string): ToolResultBlock | undefined {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result' && block.tool_use_id === id) return block;
  }
  return undefined;
}

function text(result: ToolResultBlock | undefined): string {
  if (!result) return '';
  return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
}

describe('tool inputs nested too deeply', () => {
  it('refuses 10,000 nested arrays with an error result, keeps a placeholder, and the run goes on', async () => {
    const { result, requests, runs, recorded } = await run([
      {
        content: [
          {
            type: 'tool_use',
            id: 'deep',
            name: 'Nest',
            input_json: `{"label":"deep","value":${nestedArrays(10_000)}}`,
          },
          { type: 'tool_use', id: 'flat', name: 'Nest', input: { label: 'flat' } },
        ],
      },
      { content: [{ type: 'text', text: 'Understood.' }] },
    ]);
    expect(result.status).toBe('success');
    expect(runs).toEqual(['flat']);
    const refused = resultFor(result.messages, 'deep');
    expect(refused?.is_error).toBe(true);
    expect(text(refused)).toContain(`more than ${MAX_TOOL_INPUT_DEPTH} levels deep`);
    expect(text(refused)).toContain('placeholder');
    // The request after, the history and what was recorded all serialize.
    expect(requests).toHaveLength(2);
    expect(() => JSON.stringify(requests[1])).not.toThrow();
    expect(() => JSON.stringify(recorded)).not.toThrow();
    expectValidPairing(requests[1]!);
    const assistant = result.messages.find((message) => message.role === 'assistant');
    const kept =
      assistant?.role === 'assistant' ? assistant.content.find((block) => block.type === 'tool_use') : undefined;
    expect(kept?.type === 'tool_use' && Object.keys(kept.input as object)).toEqual([REFUSED_INPUT_KEY]);
  });

  it('runs an input nested exactly to the limit, and refuses one level more', async () => {
    // The input object is one level, `value` the rest.
    const { runs, result } = await run([
      {
        content: [
          {
            type: 'tool_use',
            id: 'at-limit',
            name: 'Nest',
            input_json: `{"label":"at-limit","value":${nestedArrays(MAX_TOOL_INPUT_DEPTH - 1)}}`,
          },
          {
            type: 'tool_use',
            id: 'over',
            name: 'Nest',
            input_json: `{"label":"over","value":${nestedArrays(MAX_TOOL_INPUT_DEPTH)}}`,
          },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(runs).toEqual(['at-limit']);
    expect(resultFor(result.messages, 'at-limit')?.is_error).toBeUndefined();
    expect(resultFor(result.messages, 'over')?.is_error).toBe(true);
  });
});

describe('tool_use ids used twice', () => {
  it('refuses an id reused from an earlier turn under a fresh id, with one visible result, and runs nothing', async () => {
    const { result, requests, runs } = await run([
      { content: [{ type: 'tool_use', id: 'toolu_a', name: 'Nest', input: { label: 'first' } }] },
      {
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'Nest', input: { label: 'again' } },
          { type: 'tool_use', id: 'toolu_b', name: 'Nest', input: { label: 'fresh' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(result.status).toBe('success');
    expect(runs).toEqual(['first', 'fresh']);
    expect(text(resultFor(result.messages, 'toolu_a'))).toContain('ran first');
    const refused = resultFor(result.messages, 'toolu_a_dup1');
    expect(refused?.is_error).toBe(true);
    expect(text(refused)).toContain('already used by an earlier tool_use');
    expect(requests).toHaveLength(3);
    for (const request of requests) expectValidPairing(request);
    // The refused block and its result are in the request the model sees next.
    expect(JSON.stringify(requests[2]!.messages)).toContain('toolu_a_dup1');
  });

  it('refuses the second of two blocks with the same id in one message', async () => {
    const { result, requests, runs } = await run([
      {
        content: [
          { type: 'tool_use', id: 'same', name: 'Nest', input: { label: 'one' } },
          { type: 'tool_use', id: 'same', name: 'Nest', input: { label: 'two' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(runs).toEqual(['one']);
    expect(resultFor(result.messages, 'same_dup1')?.is_error).toBe(true);
    expectValidPairing(requests[1]!);
  });
});
