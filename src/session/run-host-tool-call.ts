import { randomUUID } from 'node:crypto';
import { runToolUses } from '../execution/run-tool-uses.js';
import type { ToolCallRecord } from '../execution/types.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';
import { createAsyncQueue } from '../loop/async-queue.js';
import type { LoopEvent, QueryOptions } from '../loop/types.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { DecisionLedger } from './decision-ledger.js';
import { tellPermissionDenied } from './run-turn.js';

/** A tool call a host makes between turns (a custom slash command's shell line), not one the model asked for. */
export type HostToolCall = {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
};

/**
 * Runs one call through the session's plane exactly as a model's call would go: the permission
 * engine and its rules, PreToolUse and PostToolUse hooks, the approver (a person's dialog), the
 * sandbox, and the decision ledger of the transcript; a refusal that no person made fires
 * PermissionDenied hooks. Yields the plane's events as they come (for a live view) and returns
 * the call's record. Nothing of it joins the conversation: the host decides what to do with it.
 */
export async function* runHostToolCall(options: {
  readonly call: HostToolCall;
  readonly pool: ToolPool;
  readonly plane: QueryOptions['plane'];
  readonly hooks: HookPlane;
  readonly hookSession: HookSession;
  readonly ledger: DecisionLedger;
  readonly signal: AbortSignal;
}): AsyncGenerator<LoopEvent, ToolCallRecord> {
  const { call, ledger, signal } = options;
  const events = createAsyncQueue<LoopEvent>();
  const block = { type: 'tool_use' as const, id: `toolu_host_${randomUUID()}`, name: call.name, input: call.input };
  const finished = runToolUses([block], {
    ...options.plane,
    pool: options.pool,
    signal,
    onEvent: (event) => events.push(event),
  }).finally(() => events.close());
  for (let event = await events.next(); event !== undefined; event = await events.next()) {
    ledger.observe(event);
    yield event;
  }
  const result = await finished;
  const results: LoopEvent = { type: 'tool-results', message: result.message };
  // The ledger writes a batch's entries once its results are in.
  ledger.observe(results);
  const record = result.records[0];
  if (record === undefined) throw new Error(`the plane gave no result for the ${call.name} call`);
  await tellPermissionDenied(options.hooks, options.hookSession, record, signal);
  return record;
}
