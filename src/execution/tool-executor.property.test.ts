import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { unparseableInput, type ToolResultBlock, type ToolUseBlock } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { createToolExecutor } from './tool-executor.js';
import type { ToolExecutorOptions, ToolRunResult } from './types.js';

/**
 * Fault injection over the executor the agent loop uses: random batches of calls that succeed,
 * throw, hang past their time limit, return huge or empty output, have malformed or unparseable
 * input or name no tool, with aborts and interrupts at random moments. Interleavings come from
 * random numbers of microtask ticks, so every run is deterministic for its seed.
 */

type Kind = 'ok' | 'throw' | 'hang' | 'huge' | 'empty' | 'malformed' | 'unparseable' | 'unknown';
type CallSpec = {
  readonly kind: Kind;
  readonly safe: boolean;
  readonly readOnly: boolean;
  readonly ticks: number;
  readonly cancels: boolean;
};
type Scenario = {
  readonly calls: readonly CallSpec[];
  readonly stop: { readonly at: number; readonly how: 'abort' | 'interrupt' } | null;
};

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  kind: fc.constantFrom<Kind>(
    'ok',
    'ok',
    'ok',
    'throw',
    'hang',
    'huge',
    'empty',
    'malformed',
    'unparseable',
    'unknown',
  ),
  safe: fc.boolean(),
  readOnly: fc.boolean(),
  ticks: fc.nat({ max: 40 }),
  cancels: fc.boolean(),
});
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  calls: fc.array(callArb, { minLength: 1, maxLength: 14 }),
  stop: fc.option(
    fc.record({ at: fc.nat({ max: 80 }), how: fc.constantFrom<'abort' | 'interrupt'>('abort', 'interrupt') }),
    { nil: null },
  ),
});

const ticks = async (count: number) => {
  for (let index = 0; index < count; index++) await Promise.resolve();
};

/** What the tools observed while a scenario ran. */
type Observed = {
  stopped: boolean;
  /** Ids whose call returned normally, and whether that was before the stop. */
  readonly completed: Map<string, { readonly beforeStop: boolean }>;
  running: number;
  runningUnsafe: number;
  violations: string[];
};

function buildTools(observed: Observed) {
  const input = z.object({
    id: z.string(),
    kind: z.string(),
    safe: z.boolean(),
    readOnly: z.boolean(),
    ticks: z.number(),
  });
  const body = async (value: z.infer<typeof input>, { signal }: { signal: AbortSignal }): Promise<string> => {
    observed.running++;
    if (!value.safe) observed.runningUnsafe++;
    if (observed.runningUnsafe > 0 && observed.running > 1)
      observed.violations.push(`unsafe call ${value.id} overlapped another call`);
    if (observed.running > 10) observed.violations.push('more than 10 calls ran at once');
    try {
      await ticks(value.ticks);
      if (value.kind === 'throw') throw new Error(`fault in ${value.id}`);
      // A hang runs until it is stopped, including when the stop came while it was still starting
      // (a call that ignores its signal altogether is the abandonment test's, in tool-executor.test.ts).
      if (value.kind === 'hang')
        await new Promise<never>((_resolve, reject) => {
          if (signal.aborted) reject(new Error('stopped'));
          signal.addEventListener('abort', () => reject(new Error('stopped')));
        });
      observed.completed.set(value.id, { beforeStop: !observed.stopped });
      if (value.kind === 'huge') return `${value.id}:`.padEnd(300_000, 'x');
      if (value.kind === 'empty') return '';
      return `result of ${value.id}`;
    } finally {
      observed.running--;
      if (!value.safe) observed.runningUnsafe--;
    }
  };
  const common = {
    inputSchema: input,
    prompt: 'fault injection',
    isConcurrencySafe: (value: z.infer<typeof input>) => value.safe,
    isReadOnly: (value: z.infer<typeof input>) => value.readOnly,
    timeoutMs: 3,
    maxResultSizeChars: 50_000,
    call: body,
  };
  return [
    defineTool({ ...common, name: 'Fault' }),
    defineTool({ ...common, name: 'FaultCancels', errorCancelsSiblings: true }),
  ];
}

function toBlocks(scenario: Scenario): ToolUseBlock[] {
  return scenario.calls.map((spec, index) => {
    const id = `toolu_${index}`;
    const name = spec.kind === 'unknown' ? 'NoSuchTool' : spec.cancels ? 'FaultCancels' : 'Fault';
    const input =
      spec.kind === 'unparseable'
        ? unparseableInput('{"id": "broken')
        : spec.kind === 'malformed'
          ? { id, kind: 'ok', safe: 'yes', ticks: -1 }
          : { id, kind: spec.kind, safe: spec.safe, readOnly: spec.readOnly, ticks: spec.ticks };
    return { type: 'tool_use', id, name, input };
  });
}

/**
 * The entry point under test. `markStop` must be called at the moment the runner stops the run,
 * so the tools know which of their returns came after it.
 */
type RunCalls = (
  blocks: readonly ToolUseBlock[],
  options: ToolExecutorOptions,
  stop: Scenario['stop'],
  markStop: () => void,
) => Promise<ToolRunResult>;

/** The real executor, driven the way the agent loop drives it. */
const realRun: RunCalls = async (blocks, options, stop, markStop) => {
  const executor = createToolExecutor(options);
  for (const block of blocks) executor.add(block);
  executor.close();
  if (stop) {
    void ticks(stop.at).then(() => {
      markStop();
      if (stop.how === 'abort') executor.abort();
      else executor.interrupt();
    });
  }
  return executor.finished;
};

/**
 * A deliberately broken scheduler: runs everything at once, ignores stops and time limits (it
 * gives up waiting after 5 ms and reports "late" as a success), and pairs results with ids in
 * completion order. The property must catch it.
 */
const brokenRun: RunCalls = async (blocks, options, stop, markStop) => {
  if (stop) void ticks(stop.at).then(markStop);
  const finished: ToolResultBlock[] = [];
  await Promise.all(
    blocks.map(async (block) => {
      const tool = options.pool.find(block.name);
      let content = 'failed';
      let isError = true;
      try {
        if (tool) {
          const late = new Promise((resolve) => setTimeout(resolve, 5, 'late'));
          content = String(await Promise.race([tool.call(block.input, {} as never), late]));
          isError = false;
        }
      } catch {
        isError = true;
      }
      finished.push({ type: 'tool_result', tool_use_id: '', content, ...(isError ? { is_error: true } : {}) });
    }),
  );
  const content = finished.map((result, index) => ({ ...result, tool_use_id: blocks[index]!.id }));
  return {
    message: { role: 'user', content },
    records: content.map((result, index) => ({
      toolUseId: blocks[index]!.id,
      toolName: blocks[index]!.name,
      input: blocks[index]!.input,
      outcome: result.is_error ? { status: 'failed', message: 'fault' } : { status: 'success', isError: false },
      result,
    })),
    abortedByUser: false,
  };
};

/**
 * The old sibling rule, deliberately: a failure of a tool that cancels marks every other call of
 * the message as cancelled, reads and earlier calls included. The property must catch it.
 */
const cancelsEveryoneRun: RunCalls = async (blocks, options, stop, markStop) => {
  const real = await realRun(blocks, options, stop, markStop);
  const failed = real.records.find(
    (record) =>
      record.toolName === 'FaultCancels' && (record.outcome.status === 'failed' || record.outcome.status === 'timeout'),
  );
  if (!failed) return real;
  const records = real.records.map((record) =>
    record === failed || record.outcome.status === 'aborted'
      ? record
      : {
          ...record,
          outcome: { status: 'cancelled' as const, byToolUseId: failed.toolUseId },
          result: { ...record.result, content: 'cancelled', is_error: true },
        },
  );
  return { ...real, records, message: { role: 'user', content: records.map((record) => record.result) } };
};

function text(result: ToolResultBlock): string {
  return typeof result.content === 'string'
    ? result.content
    : result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

const allowed: Record<Kind, readonly string[]> = {
  ok: ['success', 'cancelled', 'aborted'],
  huge: ['success', 'cancelled', 'aborted'],
  empty: ['success', 'cancelled', 'aborted'],
  throw: ['failed', 'cancelled', 'aborted'],
  hang: ['timeout', 'cancelled', 'aborted'],
  malformed: ['invalid-input', 'cancelled', 'aborted'],
  unparseable: ['invalid-input', 'cancelled', 'aborted'],
  unknown: ['unknown-tool', 'cancelled', 'aborted'],
};

/** Runs one scenario and throws on the first broken invariant. */
async function checkScenario(run: RunCalls, scenario: Scenario): Promise<void> {
  const observed: Observed = { stopped: false, completed: new Map(), running: 0, runningUnsafe: 0, violations: [] };
  const blocks = toBlocks(scenario);
  const pool = assembleToolPool({ builtins: buildTools(observed) });
  const options: ToolExecutorOptions = {
    pool,
    permissions: createFakePermissionGate(),
    cwd: '/tmp',
    sessionId: 'property',
  };
  const result = await run(blocks, options, scenario.stop, () => {
    observed.stopped = true;
  });
  const content = result.message.content;
  expect(observed.violations).toEqual([]);
  expect(content.map((block) => block.tool_use_id)).toEqual(blocks.map((block) => block.id));
  expect(result.records.map((record) => record.toolUseId)).toEqual(blocks.map((block) => block.id));
  for (let index = 0; index < blocks.length; index++) {
    const spec = scenario.calls[index]!;
    const id = blocks[index]!.id;
    const status = result.records[index]!.outcome.status;
    expect(allowed[spec.kind], `${id} (${spec.kind}) ended as ${status}`).toContain(status);
    if (!scenario.stop) expect(status).not.toBe('aborted');
    const outcome = result.records[index]!.outcome;
    if (outcome.status === 'cancelled') {
      // Only an earlier failure of a tool that cancels, and only a call that could depend on it.
      const by = blocks.findIndex((block) => block.id === outcome.byToolUseId);
      const failedSpec = scenario.calls[by];
      const parses = spec.kind !== 'malformed' && spec.kind !== 'unparseable' && spec.kind !== 'unknown';
      expect(by, `${id} was cancelled by a call that is not earlier`).toBeLessThan(index);
      expect(failedSpec?.cancels, `${id} was cancelled by a call whose tool does not cancel`).toBe(true);
      expect(parses && !spec.readOnly, `${id} (read-only or unparsed) was cancelled`).toBe(true);
    }
    if (status !== 'success') {
      expect(content[index]!.is_error, `${id} ended as ${status} but its result is not an error`).toBe(true);
      continue;
    }
    const done = observed.completed.get(id);
    expect(done, `${id} reported success but its call never returned`).toBeDefined();
    expect(done!.beforeStop, `${id} reported success for a call that returned after the stop`).toBe(true);
    if (spec.kind === 'ok') expect(text(content[index]!)).toBe(`result of ${id}`);
    if (spec.kind === 'empty') expect(text(content[index]!)).toBe(`(${blocks[index]!.name} completed with no output)`);
    if (spec.kind === 'huge') expect(text(content[index]!).length).toBeLessThan(5_000);
  }
}

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

function property(run: RunCalls) {
  return fc.asyncProperty(scenarioArb, async (scenario) => {
    unhandled = [];
    await checkScenario(run, scenario);
    // Let stray rejections of abandoned calls surface before judging.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
}

describe('executor invariants under fault injection', () => {
  it('gives each tool_use exactly one result, never reports success after a stop, and never rejects', async () => {
    await fc.assert(property(realRun), { numRuns: 3_000 });
  }, 180_000);

  it('catches a deliberately broken scheduler', async () => {
    const details = await fc.check(property(brokenRun), { numRuns: 3_000 });
    expect(details.failed).toBe(true);
    expect(details.counterexample).not.toBeNull();
  }, 180_000);

  it('catches a scheduler that cancels every sibling of a failure, reads and earlier calls too', async () => {
    const details = await fc.check(property(cancelsEveryoneRun), { numRuns: 3_000 });
    expect(details.failed).toBe(true);
    expect(details.counterexample).not.toBeNull();
  }, 180_000);
});
