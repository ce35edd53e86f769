import type { PermissionMode } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import type { ToolProgress } from '../contract/tool.js';
import { CallControl } from './call-control.js';
import { summarizeInput } from '../contract/define-tool.js';
import type { ToolResultBlock } from '../messages/types.js';
import { applyMessageBudget, DEFAULT_MESSAGE_BUDGET_CHARS } from '../results/govern-size.js';
import { createDefaultPermissionGate } from './default-permission-gate.js';
import { outcomeText } from './outcome-text.js';
import { prepareCall, type PreparedCall } from './prepare-call.js';
import { runGateChain, type GateEnvironment, type GateResult } from './run-gate-chain.js';
import type {
  ToolCallOutcome,
  ToolCallRecord,
  ToolExecutor,
  ToolExecutorOptions,
  ToolRunEvent,
  ToolRunResult,
} from './types.js';

type Entry = {
  readonly prepared: PreparedCall;
  state: 'queued' | 'running' | 'done';
  control: CallControl | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  startedAt: number;
  record: ToolCallRecord | undefined;
};

const DEFAULT_MAX_CONCURRENCY = 10;
/** Hooks get the turn's signal; a run without one shares this (an AbortSignal costs microseconds to make). */
const NEVER_ABORTED = new AbortController().signal;
/** How long a stopped call that ignores its abort signal may hold its slot before the run moves on. */
const DEFAULT_ABANDON_AFTER_MS = 1_000;
const defaultMode = (): PermissionMode => 'default';

/**
 * Creates the run for one assistant message's calls: the scheduler and the gate chain.
 *
 * Scheduling: consecutive concurrency-safe calls run in parallel (at most `maxConcurrency`, 10 by
 * default); any other call runs alone, in order. A failing call whose tool says so cancels the
 * later calls that could depend on it (see cancelDependents); an abort cancels everything; a call past its time limit is stopped. Every
 * `tool_use` gets exactly one result, and results are paired by id, never by order. A call that is
 * aborted, timed out or cancelled is answered at once; whatever it does afterwards is ignored.
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  const entries: Entry[] = [];
  const byId = new Map<string, Entry>();
  const maxConcurrency = Math.max(1, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  const getMode = options.getPermissionMode ?? defaultMode;
  const services = options.services ?? createServices();
  const agentId = options.agentId ?? 'main';
  const emit = options.onEvent
    ? (event: ToolRunEvent) => {
        try {
          options.onEvent!(event);
        } catch {
          // An observer's failure must not break the run.
        }
      }
    : () => {};

  let next = 0; // index of the first entry not yet started
  // Calls whose code may still be executing: answered or not, they hold their slot until their
  // chain settles (or, if they ignore the abort, until they are abandoned), so an unsafe call never
  // overlaps a stopped call that is still winding down.
  const occupying = new Set<Entry>();
  let occupyingUnsafe = 0;
  const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  let batch = 0;
  let closed = false;
  let stopped: 'abort' | 'interrupt' | undefined;
  let stopReason: string | undefined;
  let abortedByUser = false;
  let settled = false;
  let resolveFinished!: (result: ToolRunResult) => void;
  const finished = new Promise<ToolRunResult>((resolve) => {
    resolveFinished = resolve;
  });

  const env: GateEnvironment = {
    runSignal: options.signal ?? NEVER_ABORTED,
    permissions: options.permissions ?? createDefaultPermissionGate(),
    hooks: options.hooks,
    approver: options.approver,
    resultStore: options.resultStore,
    emit,
    abortRun: () => {
      abortedByUser = true;
      stopAll('interrupt', true);
    },
    requestStop: (reason) => {
      stopReason ??= reason;
    },
  };

  const onTurnAbort = () => stopAll('abort', true);
  if (options.signal) {
    if (options.signal.aborted) stopped = 'abort';
    else options.signal.addEventListener('abort', onTurnAbort, { once: true });
  }

  function finish(entry: Entry, gate: GateResult): void {
    if (entry.state === 'done') return;
    const wasRunning = entry.state === 'running';
    entry.state = 'done';
    if (entry.timer) clearTimeout(entry.timer);
    const block = entry.prepared.block;
    const record: ToolCallRecord = {
      toolUseId: block.id,
      toolName: block.name,
      input: block.input,
      outcome: gate.outcome,
      result: gate.result,
    };
    entry.record = record;
    emit({ type: 'tool-call-end', record, durationMs: wasRunning ? performance.now() - entry.startedAt : 0 });
    if (wasRunning) {
      if (occupying.has(entry)) {
        const abandon = setTimeout(() => release(entry), abandonAfterMs);
        abandon.unref?.();
        abandonTimers.set(entry, abandon);
      }
      if (entry.prepared.tool?.errorCancelsSiblings && isFailure(gate.outcome)) cancelDependents(entry);
    }
    pump();
    maybeSettle();
  }

  const abandonTimers = new Map<Entry, ReturnType<typeof setTimeout>>();

  /** The call's code has finished (or was abandoned): its slot is free. */
  function release(entry: Entry): void {
    if (!occupying.delete(entry)) return;
    if (!entry.prepared.concurrencySafe) occupyingUnsafe--;
    const abandon = abandonTimers.get(entry);
    if (abandon) {
      clearTimeout(abandon);
      abandonTimers.delete(entry);
    }
    pump();
  }

  function failWith(entry: Entry, outcome: Exclude<ToolCallOutcome, { status: 'success' }>): void {
    const block = entry.prepared.block;
    entry.control?.abort(outcome.status);
    finish(entry, {
      outcome,
      result: { type: 'tool_result', tool_use_id: block.id, content: outcomeText(outcome, block.name), is_error: true },
    });
  }

  /**
   * A failure cancels only the unfinished calls after it in the message that could depend on it:
   * tools that are not read-only for their input (Bash, writes). Earlier calls, reads and searches,
   * and calls whose input does not parse (they get their own error) run on.
   */
  function cancelDependents(failed: Entry): void {
    const from = entries.indexOf(failed);
    for (const entry of entries.slice(from + 1)) {
      if (entry.state === 'done' || !couldDependOnEarlierCalls(entry.prepared)) continue;
      failWith(entry, { status: 'cancelled', byToolUseId: failed.prepared.block.id });
    }
  }

  function stopAll(cause: 'abort' | 'interrupt', includeBlocking: boolean): void {
    if (!stopped || cause === 'abort') stopped = cause;
    for (const entry of entries) {
      if (entry.state === 'done') continue;
      const blocks = entry.state === 'running' && entry.prepared.tool?.interruptBehavior === 'block';
      if (blocks && !includeBlocking) continue;
      failWith(entry, { status: 'aborted', cause });
    }
  }

  function start(entry: Entry): void {
    const block = entry.prepared.block;
    const tool = entry.prepared.tool;
    entry.state = 'running';
    entry.startedAt = performance.now();
    occupying.add(entry);
    if (!entry.prepared.concurrencySafe) occupyingUnsafe++;
    const timeoutMs = tool?.timeoutMs;
    const onCallStart =
      timeoutMs !== undefined && timeoutMs > 0
        ? () => {
            if (entry.state === 'running')
              entry.timer = setTimeout(() => failWith(entry, { status: 'timeout', timeoutMs }), timeoutMs);
          }
        : undefined;
    const control = new CallControl({
      toolUseId: block.id,
      cwd: options.cwd,
      sessionId: options.sessionId,
      agentId,
      permissionMode: getMode(),
      services,
      reportProgress: (progress: ToolProgress) => {
        if (entry.state === 'running') emit({ type: 'tool-call-progress', toolUseId: block.id, progress });
      },
    });
    entry.control = control;
    // After the control exists: an observer that aborts the run from this event stops this call too.
    emit({ type: 'tool-call-start', toolUseId: block.id, toolName: block.name, batch });
    runGateChain(entry.prepared, control, env, onCallStart).then(
      (gate) => {
        // A call that was already answered (aborted, timed out, cancelled) keeps that answer.
        if (entry.state === 'running') {
          if (control.stopped && gate.outcome.status === 'success')
            failWith(entry, { status: 'aborted', cause: stopped ?? 'abort' });
          else finish(entry, gate);
        }
        release(entry);
      },
      (error: unknown) => {
        failWith(entry, { status: 'failed', message: `internal error: ${String(error)}` });
        release(entry);
      },
    );
  }

  function pump(): void {
    while (next < entries.length) {
      const entry = entries[next]!;
      if (entry.state !== 'queued') {
        next++;
        continue;
      }
      if (stopped) {
        failWith(entry, { status: 'aborted', cause: stopped });
        next++;
        continue;
      }
      if (entry.prepared.concurrencySafe) {
        if (occupyingUnsafe > 0 || occupying.size >= maxConcurrency) return;
        if (occupying.size === 0) batch++;
      } else {
        if (occupying.size > 0) return;
        batch++;
      }
      next++;
      start(entry);
    }
  }

  function maybeSettle(): void {
    if (settled || !closed) return;
    for (const entry of entries) if (entry.state !== 'done') return;
    settled = true;
    options.signal?.removeEventListener('abort', onTurnAbort);
    void settle();
  }

  async function settle(): Promise<void> {
    const records = entries.map((entry) => entry.record!);
    let blocks: ToolResultBlock[] = records.map((record) => record.result);
    const budget = options.messageBudgetChars ?? DEFAULT_MESSAGE_BUDGET_CHARS;
    try {
      const exempt = new Set(
        entries
          .filter((entry) => entry.prepared.tool?.maxResultSizeChars === Infinity)
          .map((entry) => entry.prepared.block.id),
      );
      blocks = await applyMessageBudget(blocks, { budget, store: options.resultStore, exempt });
    } catch {
      // The budget is an optimisation of context use; the results stand without it.
    }
    const finalRecords = records.map((record, index) =>
      blocks[index] === record.result ? record : { ...record, result: blocks[index]! },
    );
    resolveFinished({
      message: { role: 'user', content: blocks },
      records: finalRecords,
      ...(stopReason !== undefined ? { stopReason } : {}),
      abortedByUser,
    });
  }

  return {
    add(block) {
      if (byId.has(block.id) || closed) {
        emit({ type: 'tool-call-duplicate', toolUseId: block.id });
        return;
      }
      const prepared = prepareCall(block, options.pool, options.isSchemaLoaded);
      const entry: Entry = {
        prepared,
        state: 'queued',
        control: undefined,
        timer: undefined,
        startedAt: 0,
        record: undefined,
      };
      entries.push(entry);
      byId.set(block.id, entry);
      if (options.onEvent) {
        let summary: string;
        try {
          summary =
            prepared.tool && prepared.parsed?.ok
              ? prepared.tool.describeInput(prepared.parsed.value)
              : summarizeInput(block.input);
        } catch {
          summary = summarizeInput(block.input);
        }
        emit({ type: 'tool-call-queue', toolUseId: block.id, toolName: block.name, summary });
      }
      pump();
    },
    close() {
      closed = true;
      maybeSettle();
    },
    interrupt() {
      stopAll('interrupt', false);
    },
    abort() {
      stopAll('abort', true);
    },
    finished,
  };
}

function couldDependOnEarlierCalls(prepared: PreparedCall): boolean {
  if (!prepared.tool || !prepared.parsed?.ok) return false;
  try {
    return !prepared.tool.isReadOnly(prepared.parsed.value);
  } catch {
    return true;
  }
}

function isFailure(outcome: ToolCallOutcome): boolean {
  return (
    outcome.status === 'failed' || outcome.status === 'timeout' || (outcome.status === 'success' && outcome.isError)
  );
}
