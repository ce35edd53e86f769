import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { AnyTool } from '../contract/tool.js';
import { unparseableInput, type ToolResultBlock, type ToolUseBlock } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createResultStore } from '../results/result-store.js';
import { createFakeApprover, createFakeHookGate, createFakePermissionGate } from '../testing/fake-gates.js';
import { echoTool, failTool, sampleTools, sleepTool, weatherTool } from '../testing/sample-tools.js';
import { runToolUses } from './run-tool-uses.js';
import { createToolExecutor } from './tool-executor.js';
import type { ToolExecutorOptions, ToolRunEvent } from './types.js';

const allow = createFakePermissionGate();

function use(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

function options(extra: Partial<ToolExecutorOptions> & { tools?: readonly AnyTool[] } = {}): ToolExecutorOptions {
  return {
    pool: assembleToolPool({ builtins: extra.tools ?? sampleTools }),
    permissions: allow,
    cwd: '/tmp',
    sessionId: 'test-session',
    ...extra,
  };
}

function text(result: ToolResultBlock): string {
  return typeof result.content === 'string'
    ? result.content
    : result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

describe('the gate chain', () => {
  it('runs a call and pairs its result by id', async () => {
    const run = await runToolUses([use('a', 'Echo', { text: 'hi' })], options());
    expect(run.message).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'hi' }] });
    expect(run.records[0]!.outcome).toEqual({ status: 'success', isError: false });
  });

  it('answers an unknown tool by naming it, and never guesses', async () => {
    const run = await runToolUses([use('a', 'echo', { text: 'hi' })], options());
    expect(run.records[0]!.outcome.status).toBe('unknown-tool');
    expect(run.message.content[0]!.is_error).toBe(true);
    expect(text(run.message.content[0]!)).toContain('No tool named "echo"');
  });

  it('finds a tool by alias', async () => {
    const aliased = defineTool({
      name: 'Say',
      aliases: ['Speak'],
      inputSchema: z.object({}),
      prompt: 'x',
      call: async () => 'said',
    });
    const run = await runToolUses([use('a', 'Speak', {})], options({ tools: [aliased] }));
    expect(run.message.content[0]!.content).toBe('said');
  });

  it('names the field, the expected and the received type on schema failures', async () => {
    const run = await runToolUses(
      [use('a', 'Echo', { text: 42 }), use('b', 'Echo', {}), use('c', 'mcp__sample__get_weather', { city: 7 })],
      options(),
    );
    expect(text(run.message.content[0]!)).toContain('The parameter "text" must be string, but received number');
    expect(text(run.message.content[1]!)).toContain('The required parameter "text" is missing');
    expect(text(run.message.content[2]!)).toContain('The parameter "city" must be string, but received number 7');
    expect(run.records.map((record) => record.outcome.status)).toEqual([
      'invalid-input',
      'invalid-input',
      'invalid-input',
    ]);
  });

  it('gives unparseable JSON its own error', async () => {
    const run = await runToolUses([use('a', 'Echo', unparseableInput('{"text": "hi'))], options());
    expect(run.records[0]!.outcome.status).toBe('invalid-input');
    expect(text(run.message.content[0]!)).toMatch(/not valid JSON/);
  });

  it('tells the model to load a deferred tool whose schema was never sent', async () => {
    const run = await runToolUses(
      [use('a', 'mcp__sample__get_weather', { city: 'Oslo' })],
      options({ isSchemaLoaded: (tool) => tool.origin !== 'external' }),
    );
    expect(text(run.message.content[0]!)).toContain('select:mcp__sample__get_weather');
  });

  it('refuses a call covered by a deny rule before any tool logic runs', async () => {
    let validated = false;
    const guarded = defineTool({
      name: 'Guarded',
      inputSchema: z.object({}),
      prompt: 'x',
      validateInput: () => {
        validated = true;
        return { ok: true };
      },
      call: async () => 'ran',
    });
    const gate = createFakePermissionGate({
      preCheck: () => ({
        behavior: 'deny',
        message: 'Not here.',
        reason: { kind: 'rule', rule: 'Guarded', source: 'projectSettings' },
      }),
    });
    const run = await runToolUses([use('a', 'Guarded', {})], options({ tools: [guarded], permissions: gate }));
    expect(validated).toBe(false);
    expect(run.records[0]!.outcome.status).toBe('denied');
    expect(text(run.message.content[0]!)).toContain('rule Guarded from projectSettings');
  });

  it('returns validateInput failures as results', async () => {
    const picky = defineTool({
      name: 'Picky',
      inputSchema: z.object({}),
      prompt: 'x',
      validateInput: () => ({ ok: false, message: 'Read the file first.' }),
      call: async () => 'ran',
    });
    const run = await runToolUses([use('a', 'Picky', {})], options({ tools: [picky] }));
    expect(run.records[0]!.outcome).toEqual({ status: 'validation-failed', message: 'Read the file first.' });
  });

  it('lets a PreToolUse hook block, and rechecks an input it rewrites', async () => {
    const hooks = createFakeHookGate({
      preToolUse: ({ input }) =>
        (input as { text: string }).text === 'block'
          ? { decision: 'deny', reason: 'not today', hook: 'guard.sh' }
          : (input as { text: string }).text === 'bad'
            ? { updatedInput: { text: 5 } }
            : { updatedInput: { text: 'rewritten' }, additionalContext: ['note from hook'] },
    });
    const run = await runToolUses(
      [use('a', 'Echo', { text: 'block' }), use('b', 'Echo', { text: 'bad' }), use('c', 'Echo', { text: 'ok' })],
      options({ hooks }),
    );
    expect(run.records.map((record) => record.outcome.status)).toEqual(['hook-blocked', 'invalid-input', 'success']);
    expect(text(run.message.content[0]!)).toContain('(guard.sh) blocked this call: not today');
    expect(text(run.message.content[2]!)).toBe('rewritten\nnote from hook');
  });

  it('denies an ask when no one can approve it (fail-closed)', async () => {
    const gate = createFakePermissionGate({
      decide: () => ({
        behavior: 'ask',
        message: 'Run Echo?',
        reason: { kind: 'rule', rule: 'Echo', source: 'userSettings' },
      }),
    });
    const run = await runToolUses([use('a', 'Echo', { text: 'x' })], options({ permissions: gate }));
    expect(run.records[0]!.outcome.status).toBe('denied');
    expect(text(run.message.content[0]!)).toContain('No one is available to approve it');
  });

  it('treats passthrough as ask', async () => {
    const gate = createFakePermissionGate({ decide: () => ({ behavior: 'passthrough' }) });
    const run = await runToolUses([use('a', 'Echo', { text: 'x' })], options({ permissions: gate }));
    expect(run.records[0]!.outcome.status).toBe('denied');
  });

  it('lets PermissionRequest hooks decide before the approver', async () => {
    const gate = createFakePermissionGate({
      decide: () => ({ behavior: 'ask', message: '?', reason: { kind: 'default', message: 'ask' } }),
    });
    const approver = createFakeApprover({ behavior: 'deny' });
    const hooks = createFakeHookGate({
      permissionRequest: ({ input }) => ((input as { text: string }).text === 'yes' ? { decision: 'allow' } : {}),
    });
    const run = await runToolUses(
      [use('a', 'Echo', { text: 'yes' }), use('b', 'Echo', { text: 'no' })],
      options({ permissions: gate, approver, hooks }),
    );
    expect(run.records.map((record) => record.outcome.status)).toEqual(['success', 'denied']);
    expect(approver.requests.map((request) => request.toolUseId)).toEqual(['b']);
  });

  it('stops the turn when a PermissionRequest hook denies with interrupt', async () => {
    const gate = createFakePermissionGate({
      decide: () => ({ behavior: 'ask', message: '?', reason: { kind: 'default', message: 'ask' } }),
    });
    const hooks = createFakeHookGate({
      permissionRequest: () => ({ decision: 'deny', message: 'never', hook: 'guard.sh', interrupt: true }),
    });
    const run = await runToolUses([use('a', 'Echo', { text: 'x' })], options({ permissions: gate, hooks }));
    expect(run.records[0]!.outcome.status).toBe('denied');
    expect(run.stopReason).toBe('a PermissionRequest hook (guard.sh) denied Echo and stopped the turn');
  });

  it('saves the rules a PermissionRequest hook asks to save with its allow', async () => {
    const gate = createFakePermissionGate({
      decide: () => ({ behavior: 'ask', message: '?', reason: { kind: 'default', message: 'ask' } }),
    });
    const hooks = createFakeHookGate({
      permissionRequest: () => ({
        decision: 'allow',
        remember: [{ rule: 'Echo', behavior: 'allow', destination: 'session' }],
      }),
    });
    const run = await runToolUses([use('a', 'Echo', { text: 'x' })], options({ permissions: gate, hooks }));
    expect(run.records[0]!.outcome.status).toBe('success');
    expect(gate.remembered).toEqual([{ rule: 'Echo', behavior: 'allow', destination: 'session' }]);
  });

  it('applies every approver answer: once, always, edit (rechecked), deny with feedback, abort', async () => {
    const gate = createFakePermissionGate({
      decide: () => ({
        behavior: 'ask',
        message: 'Run?',
        reason: { kind: 'default', message: 'ask' },
        suggestions: [{ rule: 'Echo', behavior: 'allow', destination: 'localSettings' }],
      }),
    });
    const approver = createFakeApprover((request) => {
      const value = (request.input as { text: string }).text;
      if (value === 'once') return { behavior: 'allow' };
      if (value === 'always') return { behavior: 'allow', remember: request.suggestions[0]! };
      if (value === 'edit') return { behavior: 'allow', updatedInput: { ms: 0, text: 'edited' } };
      if (value === 'bad-edit') return { behavior: 'allow', updatedInput: { text: [] } };
      if (value === 'deny') return { behavior: 'deny', feedback: 'use Grep instead' };
      return { behavior: 'abort' };
    });
    const run = await runToolUses(
      ['once', 'always', 'edit', 'bad-edit', 'deny', 'abort', 'after'].map((value, index) =>
        use(`id${index}`, 'Sleep', { ms: 0, text: value }),
      ),
      options({
        permissions: gate,
        approver,
        tools: [
          defineTool({
            name: 'Sleep',
            inputSchema: z.object({ ms: z.number(), text: z.unknown() }),
            prompt: 'x',
            call: async (input) => String(input.text),
          }),
        ],
      }),
    );
    expect(run.records.map((record) => record.outcome.status)).toEqual([
      'success',
      'success',
      'success',
      'invalid-input',
      'denied',
      'aborted',
      'aborted',
    ]);
    expect(text(run.message.content[2]!)).toBe('edited');
    expect(text(run.message.content[4]!)).toContain('The user said: use Grep instead');
    expect(gate.remembered).toEqual([{ rule: 'Echo', behavior: 'allow', destination: 'localSettings' }]);
    expect(run.abortedByUser).toBe(true);
  });

  it('turns a thrown error into a result and adds failure-hook context', async () => {
    const hooks = createFakeHookGate({ postToolUseFailure: ({ error }) => ({ additionalContext: [`saw: ${error}`] }) });
    const run = await runToolUses([use('a', 'Fail', { message: 'disk full' })], options({ hooks }));
    expect(run.records[0]!.outcome).toEqual({ status: 'failed', message: 'disk full' });
    expect(text(run.message.content[0]!)).toContain('Error: disk full');
    expect(text(run.message.content[0]!)).toContain('saw: disk full');
  });

  it('lets a PostToolUse hook replace an external tool output, but not a built-in one', async () => {
    const hooks = createFakeHookGate({ postToolUse: () => ({ updatedOutput: 'replaced' }) });
    const run = await runToolUses(
      [use('a', 'mcp__sample__get_weather', { city: 'Oslo' }), use('b', 'Echo', { text: 'kept' })],
      options({ hooks }),
    );
    expect(run.message.content[0]!.content).toBe('replaced');
    expect(run.message.content[1]!.content).toBe('kept');
  });

  it('stops a call past its time limit and says so', async () => {
    const limited = defineTool({
      name: 'Limited',
      inputSchema: z.object({}),
      prompt: 'x',
      timeoutMs: 20,
      call: (_input, context) =>
        new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('stopped')))),
    });
    const run = await runToolUses([use('a', 'Limited', {})], options({ tools: [limited] }));
    expect(run.records[0]!.outcome).toEqual({ status: 'timeout', timeoutMs: 20 });
    expect(text(run.message.content[0]!)).toContain('did not finish within 20 ms');
  });

  it('maps empty output to a placeholder', async () => {
    const run = await runToolUses([use('a', 'Echo', { text: '  ' })], options());
    expect(run.message.content[0]!.content).toBe('(Echo completed with no output)');
  });
});

describe('size governance', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-results-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('spills a result over its limit to a 0600 file and sends a preview with the path', async () => {
    const big = defineTool({
      name: 'Big',
      inputSchema: z.object({}),
      prompt: 'x',
      maxResultSizeChars: 1_000,
      call: async () => 'line\n'.repeat(2_000),
    });
    const store = createResultStore({ directory: join(folder, 'tool-results') });
    const run = await runToolUses([use('toolu_1', 'Big', {})], options({ tools: [big], resultStore: store }));
    const content = text(run.message.content[0]!);
    const path = join(folder, 'tool-results', 'toolu_1.txt');
    expect(content).toContain(path);
    expect(content.length).toBeLessThan(2_600);
    expect(await readFile(path, 'utf8')).toBe('line\n'.repeat(2_000));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('keeps the whole message within its budget by spilling the largest results', async () => {
    const sized = defineTool({
      name: 'Sized',
      inputSchema: z.object({ n: z.number() }),
      prompt: 'x',
      isConcurrencySafe: () => true,
      call: async (input) => 'x'.repeat(input.n),
    });
    const store = createResultStore({ directory: join(folder, 'tool-results') });
    const run = await runToolUses(
      [use('s', 'Sized', { n: 5_000 }), use('l', 'Sized', { n: 60_000 }), use('m', 'Sized', { n: 30_000 })],
      options({ tools: [sized], resultStore: store, messageBudgetChars: 50_000 }),
    );
    const lengths = run.message.content.map((block) => text(block).length);
    expect(lengths[0]).toBe(5_000);
    expect(lengths[1]).toBeLessThan(3_000);
    expect(lengths[2]).toBe(30_000);
    expect(run.records[1]!.result).toBe(run.message.content[1]);
  });
});

describe('the scheduler', () => {
  function tracked() {
    let running = 0;
    const log: string[] = [];
    let peak = 0;
    const tool = defineTool({
      name: 'Step',
      inputSchema: z.object({ label: z.string(), safe: z.boolean(), ms: z.number() }),
      prompt: 'x',
      isConcurrencySafe: (input) => input.safe,
      call: async (input) => {
        running++;
        peak = Math.max(peak, running);
        log.push(`start ${input.label} (${running} running)`);
        await new Promise((resolve) => setTimeout(resolve, input.ms));
        log.push(`end ${input.label}`);
        running--;
        return input.label;
      },
    });
    return { tool, log, peak: () => peak };
  }

  it('runs consecutive safe calls together and unsafe calls alone, in order', async () => {
    const { tool, log } = tracked();
    const calls = [
      use('1', 'Step', { label: 'r1', safe: true, ms: 15 }),
      use('2', 'Step', { label: 'r2', safe: true, ms: 5 }),
      use('3', 'Step', { label: 'w', safe: false, ms: 5 }),
      use('4', 'Step', { label: 'r3', safe: true, ms: 5 }),
    ];
    const run = await runToolUses(calls, options({ tools: [tool] }));
    expect(log).toEqual([
      'start r1 (1 running)',
      'start r2 (2 running)',
      'end r2',
      'end r1',
      'start w (1 running)',
      'end w',
      'start r3 (1 running)',
      'end r3',
    ]);
    expect(run.message.content.map((block) => block.content)).toEqual(['r1', 'r2', 'w', 'r3']);
  });

  it('runs at most ten calls at once', async () => {
    const { tool, peak } = tracked();
    const calls = Array.from({ length: 25 }, (_, index) =>
      use(`c${index}`, 'Step', { label: `c${index}`, safe: true, ms: 2 }),
    );
    const run = await runToolUses(calls, options({ tools: [tool] }));
    expect(peak()).toBe(10);
    expect(run.message.content).toHaveLength(25);
  });

  it('treats a call whose input does not parse, or whose safety check throws, as unsafe', async () => {
    const { tool, log } = tracked();
    const throwing = defineTool({
      name: 'Throws',
      inputSchema: z.object({}),
      prompt: 'x',
      isConcurrencySafe: () => {
        throw new Error('cannot tell');
      },
      call: async () => {
        log.push('throws ran');
        return 'ran';
      },
    });
    await runToolUses(
      [
        use('1', 'Step', { label: 'a', safe: true, ms: 5 }),
        use('2', 'Throws', {}),
        use('3', 'Step', { label: 'b', safe: true, ms: 1 }),
      ],
      options({ tools: [tool, throwing] }),
    );
    expect(log).toEqual(['start a (1 running)', 'end a', 'throws ran', 'start b (1 running)', 'end b']);
  });

  it('a failure that says so cancels only the later calls that could depend on it', async () => {
    const writer = defineTool({ ...echoTool, name: 'Writer', isReadOnly: () => false, isConcurrencySafe: () => false });
    const run = await runToolUses(
      [
        use('0', 'Writer', { text: 'before' }),
        use('1', 'Fail', { message: 'boom' }),
        use('2', 'Echo', { text: 'a read runs on' }),
        use('3', 'Writer', { text: 'never' }),
        use('4', 'Writer', { text: 1 }),
      ],
      options({ tools: [failTool, echoTool, writer] }),
    );
    expect(run.records.map((record) => record.outcome.status)).toEqual([
      'success',
      'failed',
      'success',
      'cancelled',
      'invalid-input',
    ]);
    expect(text(run.message.content[2]!)).toBe('a read runs on');
    expect(text(run.message.content[3]!)).toContain('an earlier call in this message (1) failed');
    expect(text(run.message.content[4]!)).toContain('text');
    const parallel = await runToolUses(
      [use('1', 'Sleep', { ms: 30, safe: true }), use('2', 'Sleep', { ms: 1, safe: true })],
      options({
        tools: [
          defineTool({
            ...sleepTool,
            name: 'Sleep',
            errorCancelsSiblings: true,
            call: async (input, context) => {
              if (input.ms === 1) return { failed: true };
              return sleepTool.call(input, context);
            },
            mapResult: (output) =>
              typeof output === 'object' ? { content: 'exit 1', isError: true } : { content: String(output) },
          }),
        ],
      }),
    );
    // The earlier call, still running when the later one failed, is not its dependant.
    expect(parallel.records.map((record) => record.outcome.status)).toEqual(['success', 'success']);
    expect(parallel.message.content[1]!.is_error).toBe(true);
  });

  it('answers every call when the turn is aborted, including queued ones', async () => {
    const controller = new AbortController();
    const executor = createToolExecutor(options({ signal: controller.signal }));
    executor.add(use('1', 'Sleep', { ms: 5_000 }));
    executor.add(use('2', 'Echo', { text: 'queued' }));
    setTimeout(() => controller.abort(), 10);
    executor.close();
    const run = await executor.finished;
    expect(run.records.map((record) => record.outcome)).toEqual([
      { status: 'aborted', cause: 'abort' },
      { status: 'aborted', cause: 'abort' },
    ]);
    expect(run.message.content.every((block) => block.is_error)).toBe(true);
  });

  it('keeps calls that block interrupts running, and cancels the rest', async () => {
    const blocking = defineTool({
      name: 'Blocking',
      inputSchema: z.object({}),
      prompt: 'x',
      interruptBehavior: 'block',
      call: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'finished';
      },
    });
    const executor = createToolExecutor(options({ tools: [blocking, echoTool] }));
    executor.add(use('1', 'Blocking', {}));
    executor.add(use('2', 'Echo', { text: 'queued' }));
    executor.close();
    executor.interrupt();
    const run = await executor.finished;
    expect(run.records.map((record) => record.outcome.status)).toEqual(['success', 'aborted']);
  });

  it('answers a stopped call at once, but starts the next unsafe call only when it has wound down', async () => {
    const log: string[] = [];
    const stubborn = defineTool({
      name: 'Stubborn',
      inputSchema: z.object({ label: z.string(), forever: z.boolean() }),
      prompt: 'x',
      timeoutMs: 5,
      call: async (input) => {
        log.push(`start ${input.label}`);
        // Ignores its abort signal, as a badly written tool might.
        await new Promise((resolve) =>
          input.forever ? undefined : setTimeout(resolve, input.label === 'first' ? 40 : 0),
        );
        log.push(`end ${input.label}`);
        return input.label;
      },
    });
    const events: ToolRunEvent[] = [];
    const run = await runToolUses(
      [
        use('1', 'Stubborn', { label: 'first', forever: false }),
        use('2', 'Stubborn', { label: 'second', forever: false }),
      ],
      options({
        tools: [stubborn],
        abandonAfterMs: 60_000,
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'tool-call-end') log.push(`answered ${event.record.toolUseId}`);
        },
      }),
    );
    expect(run.records.map((record) => record.outcome.status)).toEqual(['timeout', 'success']);
    expect(log).toEqual(['start first', 'answered 1', 'end first', 'start second', 'end second', 'answered 2']);

    // A call that never settles is abandoned after `abandonAfterMs`, and the run goes on.
    log.length = 0;
    const abandoned = await runToolUses(
      [
        use('1', 'Stubborn', { label: 'first', forever: true }),
        use('2', 'Stubborn', { label: 'second', forever: false }),
      ],
      options({ tools: [stubborn], abandonAfterMs: 20 }),
    );
    expect(abandoned.records.map((record) => record.outcome.status)).toEqual(['timeout', 'success']);
    expect(log).toEqual(['start first', 'start second', 'end second']);
  });

  it('answers a duplicate id once and reports the duplicate', async () => {
    const events: ToolRunEvent[] = [];
    const run = await runToolUses(
      [use('a', 'Echo', { text: '1' }), use('a', 'Echo', { text: '2' })],
      options({ onEvent: (event) => events.push(event) }),
    );
    expect(run.message.content).toEqual([{ type: 'tool_result', tool_use_id: 'a', content: '1' }]);
    expect(events.some((event) => event.type === 'tool-call-duplicate')).toBe(true);
  });

  it('emits queue, start, permission and end events with batch numbers', async () => {
    const events: ToolRunEvent[] = [];
    await runToolUses(
      [use('a', 'Echo', { text: '1' }), use('b', 'Echo', { text: '2' }), use('c', 'Fail', { message: 'x' })],
      options({ onEvent: (event) => events.push(event) }),
    );
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts.map((event) => (event.type === 'tool-call-start' ? event.batch : -1))).toEqual([1, 1, 2]);
    expect(events.filter((event) => event.type === 'tool-call-end')).toHaveLength(3);
    expect(events.find((event) => event.type === 'tool-call-queue')).toMatchObject({ summary: 'echo "1"' });
  });

  it('keeps streamed safe calls in one batch when the first finished before the next arrived', async () => {
    const starts: number[] = [];
    let ended = 0;
    const executor = createToolExecutor(
      options({
        onEvent: (event) => {
          if (event.type === 'tool-call-start') starts.push(event.batch);
          if (event.type === 'tool-call-end') ended++;
        },
      }),
    );
    const settled = async (count: number) => {
      while (ended < count) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    executor.add(use('a', 'Echo', { text: '1' }));
    await settled(1);
    executor.add(use('b', 'Echo', { text: '2' }));
    await settled(2);
    // An unsafe call runs alone, and the safe call after it starts a new batch.
    executor.add(use('c', 'Fail', { message: 'x' }));
    await settled(3);
    executor.add(use('d', 'Echo', { text: '3' }));
    executor.close();
    await executor.finished;
    expect(starts).toEqual([1, 1, 2, 3]);
  });

  it('works with the default gate: read-only calls run, others are denied without an approver', async () => {
    const run = await runToolUses([use('a', 'Echo', { text: 'x' }), use('b', 'Fail', { message: 'x' })], {
      pool: assembleToolPool({ builtins: sampleTools }),
      cwd: '/tmp',
      sessionId: 's',
    });
    expect(run.records.map((record) => record.outcome.status)).toEqual(['success', 'denied']);
    void weatherTool;
  });
});

describe('a schema whose parse throws', () => {
  it('answers the call with an input error instead of throwing from add', async () => {
    const throwing = defineTool({
      name: 'Picky',
      inputSchema: z.object({ text: z.string() }).refine(() => {
        throw new Error('refinement exploded');
      }),
      prompt: 'x',
      isConcurrencySafe: () => true,
      call: async () => 'ran',
    });
    const executor = createToolExecutor(options({ tools: [throwing, ...sampleTools] }));
    expect(() => executor.add(use('a', 'Picky', { text: 'hi' }))).not.toThrow();
    executor.add(use('b', 'Echo', { text: 'still runs' }));
    executor.close();
    const run = await executor.finished;
    expect(run.records.map((record) => record.outcome.status)).toEqual(['invalid-input', 'success']);
    expect(text(run.message.content[0]!)).toContain('refinement exploded');
    expect(run.message.content[1]!.content).toBe('still runs');
  });
});

describe('an observer that stops the run from an event', () => {
  it('keeps a call it aborted at tool-call-start from running', async () => {
    let ran = false;
    const effect = defineTool({
      name: 'Effect',
      inputSchema: z.object({}),
      prompt: 'x',
      call: async () => {
        ran = true;
        return 'done';
      },
    });
    const ref: { executor?: ReturnType<typeof createToolExecutor> } = {};
    const executor = createToolExecutor(
      options({
        tools: [effect],
        onEvent: (event) => {
          if (event.type === 'tool-call-start') ref.executor?.abort();
        },
      }),
    );
    ref.executor = executor;
    executor.add(use('a', 'Effect', {}));
    executor.close();
    const run = await executor.finished;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.records[0]!.outcome.status).toBe('aborted');
    expect(ran).toBe(false);
  });
});

describe('an input replaced while an ask is answered', () => {
  const ask = {
    behavior: 'ask',
    message: 'Echo needs approval.',
    reason: { kind: 'default', message: 'no rule' },
  } as const;
  const gate = createFakePermissionGate({
    decide: ({ input }) =>
      (input as { text: string }).text === 'forbidden'
        ? { behavior: 'deny', message: 'Plan mode is on.', reason: { kind: 'mode', mode: 'plan' } }
        : ask,
  });

  it('is decided again, so a PermissionRequest hook cannot swap in an input the gate denies', async () => {
    const hooks = createFakeHookGate({
      permissionRequest: () => ({ decision: 'allow', updatedInput: { text: 'forbidden' } }),
    });
    const run = await runToolUses([use('a', 'Echo', { text: 'fine' })], options({ permissions: gate, hooks }));
    expect(run.records[0]!.outcome.status).toBe('denied');
    expect(text(run.message.content[0]!)).not.toBe('forbidden');
  });

  it('is decided again when the person edits it', async () => {
    const approver = createFakeApprover({ behavior: 'allow', updatedInput: { text: 'forbidden' } });
    const run = await runToolUses([use('a', 'Echo', { text: 'fine' })], options({ permissions: gate, approver }));
    expect(run.records[0]!.outcome.status).toBe('denied');
  });

  it('still runs a replaced input the gate would only ask about', async () => {
    const hooks = createFakeHookGate({
      permissionRequest: () => ({ decision: 'allow', updatedInput: { text: 'other' } }),
    });
    const run = await runToolUses([use('a', 'Echo', { text: 'fine' })], options({ permissions: gate, hooks }));
    expect(run.message.content[0]!.content).toBe('other');
  });
});

describe('the default permission gate', () => {
  it("honours a PreToolUse hook's ask, even for a read-only call", async () => {
    const hooks = createFakeHookGate({
      preToolUse: () => ({ decision: 'ask', reason: 'a person must see this', hook: 'policy' }),
    });
    const approver = createFakeApprover({ behavior: 'deny' });
    const run = await runToolUses([use('a', 'Echo', { text: 'hi' })], {
      pool: assembleToolPool({ builtins: sampleTools }),
      cwd: '/tmp',
      sessionId: 's',
      hooks,
      approver,
    });
    expect(approver.requests).toHaveLength(1);
    expect(run.records[0]!.outcome.status).toBe('denied');
  });
});
