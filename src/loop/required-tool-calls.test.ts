import { describe, expect, it } from 'vitest';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { scriptedModel, textTurn, toolTurn } from '../testing/scripted-model.js';
import { sampleTools } from '../testing/sample-tools.js';
import { createStructuredOutputTool } from '../tools/structured-output/structured-output-tool.js';
import type { ToolCallRecord } from '../execution/types.js';
import { query } from './query.js';
import { requiredToolCalls } from './required-tool-calls.js';
import type { LoopEvent, QueryOptions, QueryResult } from './types.js';

const schema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
const wrong = (id: string) => ({ id, name: 'StructuredOutput', input: { count: 'many' } });

async function run(turns: Parameters<typeof scriptedModel>[0], maxFailedCalls?: number) {
  const provider = scriptedModel(turns);
  const pool = assembleToolPool({ builtins: [...sampleTools, createStructuredOutputTool(schema)], external: [] });
  const options: QueryOptions = {
    provider,
    system: 'test',
    messages: [{ role: 'user', content: 'count' }],
    getPool: () => pool,
    plane: { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's' },
    requiredTool: { name: 'StructuredOutput', maxReminders: 3, ...(maxFailedCalls ? { maxFailedCalls } : {}) },
  };
  const events: LoopEvent[] = [];
  const generator = query(options);
  for (;;) {
    const step = await generator.next();
    if (step.done) return { events, result: step.value as QueryResult, provider };
    events.push(step.value);
  }
}

describe('the cap on failed structured-output calls', () => {
  it('ends the run with error_max_structured_output_retries after the fifth failed call', async () => {
    const turns = ['a', 'b', 'c', 'd', 'e'].map((id) => toolTurn([wrong(id)]));
    // Never reached: the run stops before a sixth request.
    turns.push(toolTurn([{ id: 'f', name: 'StructuredOutput', input: { count: 6 } }]));
    const { result, events } = await run(turns);
    expect(result.status).toBe('error_max_structured_output_retries');
    expect(result.turns).toBe(5);
    expect(result.requiredToolInput).toBeUndefined();
    expect(result.error?.message).toMatch(/5 failed StructuredOutput calls/);
    expect(events.some((event) => event.type === 'error')).toBe(true);
    // Every call got its result: the last message is the fifth refusal.
    const last = result.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last)).toContain('"tool_use_id":"e"');
  });

  it('counts failures across turns and within one batch, and honours a smaller cap', async () => {
    const { result } = await run([toolTurn([wrong('a'), wrong('b')]), toolTurn([wrong('c')])], 3);
    expect(result.status).toBe('error_max_structured_output_retries');
    expect(result.turns).toBe(2);
  });

  it('succeeds when a valid call comes before the cap; other tools failing do not count', async () => {
    const failing = ['a', 'b', 'c', 'd'].map((id) => toolTurn([wrong(id), { id: `x${id}`, name: 'Echo', input: {} }]));
    const { result } = await run([
      ...failing,
      textTurn('done?'),
      toolTurn([{ id: 'ok', name: 'StructuredOutput', input: { count: 4 } }]),
    ]);
    expect(result.status).toBe('success');
    expect(result.requiredToolInput).toEqual({ count: 4 });
  });

  it('does not count calls that never had their chance (cancelled by a sibling, aborted)', () => {
    const record = (toolUseId: string, outcome: ToolCallRecord['outcome']): ToolCallRecord => ({
      toolUseId,
      toolName: 'StructuredOutput',
      input: { count: 1 },
      outcome,
      result: { type: 'tool_result', tool_use_id: toolUseId, content: '' },
    });
    expect(
      requiredToolCalls(
        [
          record('a', { status: 'cancelled', byToolUseId: 'x' }),
          record('b', { status: 'aborted', cause: 'interrupt' }),
          record('c', { status: 'denied', message: 'no', reason: { type: 'mode', mode: 'default' } as never }),
          record('d', { status: 'success', isError: true }),
          { ...record('e', { status: 'invalid-input', message: 'bad' }), toolName: 'Other' },
        ],
        'StructuredOutput',
      ),
    ).toEqual({ failed: 2 });
    expect(requiredToolCalls([record('f', { status: 'success', isError: false })], 'StructuredOutput')).toEqual({
      input: { count: 1 },
      failed: 0,
    });
  });
});
