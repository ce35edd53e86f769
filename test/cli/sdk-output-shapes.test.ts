import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockReply } from '../../src/testing/mock-server-types.js';
import { isolatedEnv, jsonLines, runCli } from './run-cli.js';
import { sdkTypeErrors, sdkTypeOf } from './sdk-types.js';

type Message = Record<string, unknown>;
type Scenario = { readonly messages: Message[]; readonly requests: number; readonly code: number | null };

const glob = { type: 'tool_use' as const, id: 'toolu_glob', name: 'Glob', input: { pattern: '*.txt' } };
const usage = { input_tokens: 1_000, output_tokens: 100 };
const countSchema = JSON.stringify({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });

/** Every key of a value, at every depth, with the type of each leaf: the shape a snapshot keeps. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value === null) return null;
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
    );
  return typeof value;
}

describe('output shapes, checked against the Agent SDK published types', () => {
  let home: string;
  let project: string;
  const runs: Record<string, Scenario> = {};

  const run = async (replies: MockReply[], args: readonly string[]): Promise<Scenario> => {
    const server = await startMockAnthropicServer({ replies });
    try {
      const result = await runCli(['-p', 'go', ...args], {
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
      });
      const messages = jsonLines(result.stdout);
      return { messages, requests: server.requests.length, code: result.code };
    } finally {
      await server.close();
    }
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-shapes-'));
    project = join(home, 'project');
    await mkdir(project);
    await writeFile(join(project, 'a.txt'), 'alpha\n');
    await writeFile(join(project, 'b.txt'), 'beta\n');
    // A deny rule, and a PreToolUse hook that blocks every Write: both must be listed as denials.
    const guarded = join(home, 'guarded.json');
    await writeFile(
      guarded,
      JSON.stringify({
        permissions: { deny: ['Bash(rm:*)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Write', hooks: [{ type: 'command', command: 'echo "writes are reviewed" >&2; exit 2' }] },
          ],
        },
      }),
    );
    const free = join(home, 'free.json');
    await writeFile(free, JSON.stringify({ modelPrices: { 'claude-sonnet-5-5': { input: 0, output: 0 } } }));
    const stream = ['--output-format', 'stream-json', '--verbose'];
    const json = ['--output-format', 'json'];
    const scenarios: Record<string, () => Promise<Scenario>> = {
      tool: () =>
        run(
          [
            { content: [{ type: 'text', text: 'looking' }, glob], usage },
            { content: [{ type: 'text', text: 'two files' }], usage },
          ],
          [...stream, '--include-partial-messages'],
        ),
      maxTurns: () => run([{ content: [glob], usage }], [...json, '--max-turns', '1']),
      denials: () =>
        run(
          [
            {
              content: [
                { type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command: 'rm -rf a.txt' } },
                {
                  type: 'tool_use',
                  id: 'toolu_write',
                  name: 'Write',
                  input: { file_path: join(project, 'c.txt'), content: 'x' },
                },
              ],
            },
            { content: [{ type: 'text', text: 'refused' }] },
          ],
          [...json, '--settings', guarded],
        ),
      hooks: () =>
        run(
          [
            {
              content: [
                {
                  type: 'tool_use',
                  id: 'toolu_write',
                  name: 'Write',
                  input: { file_path: join(project, 'c.txt'), content: 'x' },
                },
              ],
            },
            { content: [{ type: 'text', text: 'refused' }] },
          ],
          [...stream, '--include-hook-events', '--settings', guarded],
        ),
      retry: () =>
        run(
          [{ kind: 'error', status: 529, retryAfterSeconds: 0.01 }, { content: [{ type: 'text', text: 'through' }] }],
          [...stream, '--max-retries', '2'],
        ),
      structured: () =>
        run(
          [{ content: [{ type: 'tool_use', id: 'toolu_out', name: 'StructuredOutput', input: { count: 2 } }] }],
          [...json, '--json-schema', countSchema],
        ),
      failed: () => run([{ kind: 'error', status: 400, message: 'bad request body' }], json),
      budget: () =>
        run(
          [{ content: [glob], usage }, { content: [{ type: 'text', text: 'never sent' }] }],
          [...json, '--max-budget-usd', '0.001'],
        ),
      subagentBudget: () =>
        run(
          [
            {
              content: [
                {
                  type: 'tool_use',
                  id: 'toolu_agent',
                  name: 'Agent',
                  input: { description: 'look', prompt: 'look around' },
                },
              ],
              usage: { input_tokens: 10, output_tokens: 10 },
            },
            { content: [{ type: 'text', text: 'the report' }], usage: { input_tokens: 10_000, output_tokens: 1_000 } },
            { content: [{ type: 'text', text: 'never sent' }] },
          ],
          [...json, '--max-budget-usd', '0.01', '--permission-mode', 'bypassPermissions'],
        ),
      freeBudget: () =>
        run(
          [
            { content: [glob], usage },
            { content: [{ type: 'text', text: 'done for free' }], usage },
          ],
          [...json, '--max-budget-usd', '0.001', '--settings', free],
        ),
    };
    const entries = await Promise.all(
      Object.entries(scenarios).map(async ([name, start]) => [name, await start()] as const),
    );
    for (const [name, scenario] of entries) runs[name] = scenario;
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const result = (name: string) => runs[name]!.messages.at(-1)!;

  it('every message of every run type-checks as the SDK type it claims', () => {
    const all = Object.values(runs).flatMap((scenario) => scenario.messages);
    expect(all.every((message) => sdkTypeOf(message) !== 'never')).toBe(true);
    expect(sdkTypeErrors(all)).toEqual([]);
  }, 60_000);

  it('the check fails on a message the SDK would misread (a negative control)', () => {
    const success = result('tool');
    const { errors: _none, ...withoutErrors } = { ...result('failed') };
    const errors = sdkTypeErrors([
      { ...success, provider: 'anthropic' },
      withoutErrors,
      { ...success, num_turns: '2' },
    ]);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/provider/);
    expect(errors[1]).toMatch(/errors/);
    expect(errors[2]).toMatch(/'string' is not assignable to type 'number'/);
  }, 60_000);

  it('streams one assistant event per block, with the same message id, and partial events before them', () => {
    const { messages } = runs['tool']!;
    const assistants = messages.filter((message) => message['type'] === 'assistant');
    const ids = assistants.map((message) => (message['message'] as { id: string }).id);
    expect(assistants).toHaveLength(3);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    const events = messages
      .filter((message) => message['type'] === 'stream_event')
      .map((message) => message['event'] as { type: string; message?: { id: string }; delta?: { type?: string } });
    // Consecutive deltas of a block collapse to one entry: the mock streams text in chunks.
    const kinds = events.map((event) => event.type).filter((type, at, all) => type !== all[at - 1]);
    expect(kinds.slice(0, 9)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]!.message!.id).toBe(ids[0]);
    const deltas = events.flatMap((event) => (event.delta?.type ? [event.delta.type] : []));
    expect(new Set(deltas)).toEqual(new Set(['text_delta', 'input_json_delta']));
    const users = messages.filter((message) => message['type'] === 'user');
    expect(users).toEqual([
      expect.objectContaining({ parent_tool_use_id: null, tool_use_result: expect.stringContaining('a.txt') }),
    ]);
  });

  it('prices the run from the list, per model, and counts the time spent waiting for the API', () => {
    const end = result('tool');
    // claude-sonnet-5-5 lists at $2 in and $10 out per million tokens: 2 × (1000 × 2 + 100 × 10) / 1e6.
    expect(end['total_cost_usd']).toBeCloseTo(0.006, 10);
    expect(end['modelUsage']).toEqual({
      'claude-sonnet-5-5': expect.objectContaining({ inputTokens: 2_000, outputTokens: 200, costBasis: 'list' }),
    });
    expect(end['num_turns']).toBe(2);
    expect(end['stop_reason']).toBe('end_turn');
    expect(end['duration_api_ms']).toBeGreaterThan(0);
    expect(end['duration_ms']).toBeGreaterThanOrEqual(end['duration_api_ms'] as number);
  });

  it('error results carry errors and no result; a hook block is a denial like a rule', () => {
    const maxTurns = result('maxTurns');
    expect(maxTurns).toMatchObject({ subtype: 'error_max_turns', is_error: true, errors: [expect.any(String)] });
    expect(maxTurns).not.toHaveProperty('result');
    expect(result('failed')).toMatchObject({ subtype: 'error_during_execution', errors: [expect.any(String)] });
    const denied = result('denials')['permission_denials'] as { tool_use_id: string }[];
    expect(denied.map((denial) => denial.tool_use_id).sort()).toEqual(['toolu_rm', 'toolu_write']);
  });

  it('--include-hook-events shows each hook start and end, paired by id, after init', () => {
    const { messages } = runs['hooks']!;
    const hooks = messages.filter((message) => String(message['subtype']).startsWith('hook_'));
    expect(messages.findIndex((message) => message['subtype'] === 'init')).toBe(0);
    expect(hooks.map((message) => message['subtype'])).toEqual(['hook_started', 'hook_response']);
    expect(hooks[1]).toMatchObject({
      hook_id: hooks[0]!['hook_id'],
      hook_event: 'PreToolUse',
      outcome: 'error',
      exit_code: 2,
      stderr: expect.stringContaining('writes are reviewed'),
    });
    // Without the flag, none.
    expect(runs['tool']!.messages.some((message) => String(message['subtype']).startsWith('hook_'))).toBe(false);
  });

  it('api_retry names the failure as the SDK does', () => {
    const retries = runs['retry']!.messages.filter((message) => message['subtype'] === 'api_retry');
    expect(retries).toEqual([expect.objectContaining({ error: 'overloaded', error_status: 529, attempt: 1 })]);
  });

  it('structured output is on the success result', () => {
    expect(result('structured')).toMatchObject({ subtype: 'success', structured_output: { count: 2 } });
  });

  it('--max-budget-usd stops before the next request once spent; a price of 0 from settings never stops', () => {
    expect(result('budget')).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(runs['budget']!.requests).toBe(1);
    expect(runs['budget']!.code).toBe(1);
    expect(result('freeBudget')).toMatchObject({ subtype: 'success', result: 'done for free', total_cost_usd: 0 });
    expect(runs['freeBudget']!.requests).toBe(2);
    expect((result('freeBudget')['modelUsage'] as Record<string, { costBasis: string }>)['claude-sonnet-5-5']).toEqual(
      expect.objectContaining({ costBasis: 'managed' }),
    );
  });

  it("a subagent's requests count towards the budget and the result's cost", () => {
    // Parent $0.00012, then the subagent's $0.03 (10,000 in at $2, 1,000 out at $10 per million).
    expect(result('subagentBudget')).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(runs['subagentBudget']!.requests).toBe(2);
    expect(result('subagentBudget')['total_cost_usd']).toBeCloseTo(0.03012, 10);
    expect(
      (result('subagentBudget')['modelUsage'] as Record<string, { inputTokens: number }>)['claude-sonnet-5-5'],
    ).toMatchObject({ inputTokens: 10_010 });
  });

  it('each kind of message keeps its shape, key by key', () => {
    const kinds = new Map<string, unknown>();
    for (const scenario of Object.values(runs))
      for (const message of scenario.messages) {
        const event = message['event'] as { type?: string } | undefined;
        const block = (message['message'] as { content?: { type?: string }[] } | undefined)?.content?.[0];
        const kind = [message['type'], message['subtype'], event?.type, block?.type].filter(Boolean).join('/');
        kinds.set(kind, shapeOf(message));
      }
    expect(Object.fromEntries([...kinds].sort(([a], [b]) => a.localeCompare(b)))).toMatchSnapshot();
  });
});
