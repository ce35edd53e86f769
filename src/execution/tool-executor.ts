import type { PermissionMode } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import type { ToolProgress } from '../contract/tool.js';
import { summarizeInput } from '../contract/define-tool.js';
import { CallControl } from './call-control.js';
import { queuedEntry, type CallEntry } from './call-entry.js';
import { createCallQueue } from './call-queue.js';
import { createConcurrencySlots } from './concurrency-slots.js';
import { createDefaultPermissionGate } from './default-permission-gate.js';
import { prepareCall, type PreparedCall } from './prepare-call.js';
import { failure } from './call-in-progress.js';
import { runGateChain, type GateEnvironment, type GateResult } from './run-gate-chain.js';
import { createRunEnd } from './settle-run.js';
import {
  armTimeLimit,
  cancelsSibling,
  listenForTurnAbort,
  recordRunStop,
  runStopReaches,
  stopOutcome,
  type CallStopCause,
  type RunStopCause,
  type RunStops,
} from './stop-causes.js';
import type { ToolCallRecord, ToolExecutor, ToolExecutorOptions, ToolRunEvent } from './types.js';

const DEFAULT_MAX_CONCURRENCY = 10;
/** Hooks get the turn's signal; a run without one shares this (an AbortSignal costs microseconds to make). */
const NEVER_ABORTED = new AbortController().signal;
/** How long a stopped call that ignores its abort signal may hold its slot before the run moves on. */
const DEFAULT_ABANDON_AFTER_MS = 1_000;
const defaultMode = (): PermissionMode => 'default';

/**
 * The batch numbers calls start with. Consecutive safe calls share one even when the running ones
 * all finished before the next arrived (a streamed answer's calls come one by one); an unsafe call
 * always has its own.
 */
function createBatchNumbers(): { readonly current: number; open(concurrencySafe: boolean): void } {
  let current = 0;
  let safe = false;
  return {
    get current() {
      return current;
    },
    open(concurrencySafe) {
      if (!(concurrencySafe && safe)) current++;
      safe = concurrencySafe;
    },
  };
}

/**
 * Creates the run for one assistant message's calls: a queue in `tool_use` order, concurrency
 * slots, the run's stop causes, and the gate chain for each call.
 *
 * Scheduling: consecutive concurrency-safe calls run in parallel (at most `maxConcurrency`, 10 by
 * default); any other call runs alone, in order. A failing call whose tool says so cancels every
 * unfinished sibling; an abort cancels everything; a call past its time limit is stopped. Every
 * `tool_use` gets exactly one result, and results are paired by id, never by order. A call that is
 * aborted, timed out or cancelled is answered at once; whatever it does afterwards is ignored.
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  const queue = createCallQueue();
  const slots = createConcurrencySlots({
    maxConcurrency: Math.max(1, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY),
    abandonAfterMs: options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS,
  });
  const stops: RunStops = { cause: undefined, hookStopReason: undefined, abortedByUser: false };
  const emit = guardedObserver(options.onEvent);
  const startCall = callStarter(options, emit);
  const batches = createBatchNumbers();
  const end = createRunEnd({
    entries: queue.entries,
    stops,
    budgetChars: options.messageBudgetChars,
    resultStore: options.resultStore,
    onSettle: () => stopListening(),
  });

  const env = gateEnvironment(options, {
    emit,
    abortRun: () => {
      stops.abortedByUser = true;
      stopRun('interrupt', true);
    },
    requestStop: (reason) => {
      stops.hookStopReason ??= reason;
    },
  });

  const stopListening = listenForTurnAbort(options.signal, { stops, stopRun: () => stopRun('abort', true) });

  function finish(entry: CallEntry, gate: GateResult): void {
    if (entry.state === 'done') return;
    const wasRunning = entry.state === 'running';
    entry.state = 'done';
    if (entry.timer) clearTimeout(entry.timer);
    const block = entry.prepared.block;
    const record: ToolCallRecord = { toolUseId: block.id, toolName: block.name, input: block.input, ...gate };
    entry.record = record;
    emit({ type: 'tool-call-end', record, durationMs: wasRunning ? performance.now() - entry.startedAt : 0 });
    if (wasRunning) {
      slots.abandonLater(entry, () => release(entry));
      const failed = { entry, outcome: gate.outcome };
      // Only the calls after it in the message can depend on it.
      for (const sibling of queue.entries.slice(queue.entries.indexOf(entry) + 1)) {
        if (cancelsSibling(failed, sibling)) stopCall(sibling, { kind: 'sibling-failed', byToolUseId: block.id });
      }
    }
    pump();
    end.check();
  }

  /** The call's code has finished (or was abandoned): its slot is free. */
  function release(entry: CallEntry): void {
    if (slots.release(entry)) pump();
  }

  function stopCall(entry: CallEntry, cause: CallStopCause): void {
    const outcome = stopOutcome(cause);
    entry.control?.abort(outcome.status);
    finish(entry, failure(entry.prepared.block, outcome));
  }

  function stopRun(cause: RunStopCause, includeBlocking: boolean): void {
    recordRunStop(stops, cause);
    for (const entry of queue.entries) {
      if (runStopReaches(entry, includeBlocking)) stopCall(entry, { kind: 'run-stopped', cause });
    }
  }

  function start(entry: CallEntry): void {
    entry.state = 'running';
    entry.startedAt = performance.now();
    slots.occupy(entry);
    const control = startCall(entry, batches.current);
    const stopCause = () => stops.cause;
    settleCallWhenDone(entry, { control, env, finish, stopCall, release, stopCause });
  }

  function pump(): void {
    for (let entry = queue.peek(); entry !== undefined; entry = queue.peek()) {
      if (stops.cause) {
        queue.take();
        stopCall(entry, { kind: 'run-stopped', cause: stops.cause });
        continue;
      }
      const placement = slots.place(entry.prepared.concurrencySafe);
      if (placement === 'wait') return;
      if (placement === 'new-batch') batches.open(entry.prepared.concurrencySafe);
      queue.take();
      start(entry);
    }
  }

  return {
    add(block) {
      if (queue.has(block.id) || end.closed) {
        emit({ type: 'tool-call-duplicate', toolUseId: block.id });
        return;
      }
      const prepared = prepareCall(block, options);
      queue.push(queuedEntry(prepared));
      if (options.onEvent) {
        emit({ type: 'tool-call-queue', toolUseId: block.id, toolName: block.name, summary: queueSummary(prepared) });
      }
      pump();
    },
    close() {
      end.close();
    },
    interrupt() {
      stopRun('interrupt', false);
    },
    abort() {
      stopRun('abort', true);
    },
    finished: end.finished,
  };
}

/** What a started call's chain reports to when it settles. */
type CallSettlement = {
  readonly control: CallControl;
  readonly env: GateEnvironment;
  readonly finish: (entry: CallEntry, gate: GateResult) => void;
  readonly stopCall: (entry: CallEntry, cause: CallStopCause) => void;
  readonly release: (entry: CallEntry) => void;
  readonly stopCause: () => RunStopCause | undefined;
};

/** Runs the started call's gate chain and answers the call with what it settles to, unless it was answered already. */
function settleCallWhenDone(entry: CallEntry, run: CallSettlement): void {
  const { control } = run;
  runGateChain({
    prepared: entry.prepared,
    control,
    env: run.env,
    onCallStart: armTimeLimit(entry, run.stopCall),
  }).then(
    (gate) => {
      // A call that was already answered (aborted, timed out, cancelled) keeps that answer.
      if (entry.state === 'running') {
        if (control.stopped && gate.outcome.status === 'success')
          run.stopCall(entry, { kind: 'run-stopped', cause: run.stopCause() ?? 'abort' });
        else run.finish(entry, gate);
      }
      run.release(entry);
    },
    (error: unknown) => {
      run.stopCall(entry, { kind: 'internal-error', message: `internal error: ${String(error)}` });
      run.release(entry);
    },
  );
}

/** The stages every call of the run passes through, and how a call reports back to the run. */
function gateEnvironment(
  options: ToolExecutorOptions,
  run: Pick<GateEnvironment, 'emit' | 'abortRun' | 'requestStop'>,
): GateEnvironment {
  return {
    runSignal: options.signal ?? NEVER_ABORTED,
    permissions: options.permissions ?? createDefaultPermissionGate(),
    hooks: options.hooks,
    approver: options.approver,
    resultStore: options.resultStore,
    ...run,
  };
}

/** The run's observer; an observer's failure must not break the run. */
function guardedObserver(onEvent: ((event: ToolRunEvent) => void) | undefined): (event: ToolRunEvent) => void {
  if (!onEvent) return () => {};
  return (event) => {
    try {
      onEvent(event);
    } catch {
      // An observer's failure must not break the run.
    }
  };
}

/** Makes each starting call's control (its context) and announces the start. */
function callStarter(options: ToolExecutorOptions, emit: (event: ToolRunEvent) => void) {
  const getMode = options.getPermissionMode ?? defaultMode;
  const services = options.services ?? createServices();
  const agentId = options.agentId ?? 'main';
  return (entry: CallEntry, batch: number): CallControl => {
    const block = entry.prepared.block;
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
    return control;
  };
}

/** The one-line summary of a queued call, for people. */
function queueSummary(prepared: PreparedCall): string {
  if (prepared.refusal !== undefined) return '(input refused)';
  try {
    return prepared.tool && prepared.parsed?.ok
      ? prepared.tool.describeInput(prepared.parsed.value)
      : summarizeInput(prepared.block.input);
  } catch {
    return summarizeInput(prepared.block.input);
  }
}
