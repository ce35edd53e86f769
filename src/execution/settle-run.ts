import type { ToolResultBlock } from '../messages/types.js';
import { applyMessageBudget, DEFAULT_MESSAGE_BUDGET_CHARS } from '../results/govern-size.js';
import type { ResultStore } from '../results/result-store.js';
import type { CallEntry } from './call-entry.js';
import type { RunStops } from './stop-causes.js';
import type { ToolRunResult } from './types.js';

/**
 * The run's result once every call is answered: one `tool_result` per `tool_use` in `tool_use`
 * order, with the per-message size budget applied (a tool with no size limit is exempt).
 */
async function settleRun(options: {
  readonly entries: readonly CallEntry[];
  readonly stops: RunStops;
  readonly budgetChars: number | undefined;
  readonly resultStore: ResultStore | undefined;
}): Promise<ToolRunResult> {
  const { entries, stops } = options;
  const records = entries.map((entry) => entry.record!);
  let blocks: ToolResultBlock[] = records.map((record) => record.result);
  try {
    const exempt = new Set(
      entries
        .filter((entry) => entry.prepared.tool?.maxResultSizeChars === Infinity)
        .map((entry) => entry.prepared.block.id),
    );
    blocks = await applyMessageBudget(blocks, {
      budget: options.budgetChars ?? DEFAULT_MESSAGE_BUDGET_CHARS,
      store: options.resultStore,
      exempt,
    });
  } catch {
    // The budget is an optimisation of context use; the results stand without it.
  }
  const finalRecords = records.map((record, index) =>
    blocks[index] === record.result ? record : { ...record, result: blocks[index]! },
  );
  return {
    message: { role: 'user', content: blocks },
    records: finalRecords,
    ...(stops.hookStopReason !== undefined ? { stopReason: stops.hookStopReason } : {}),
    abortedByUser: stops.abortedByUser,
  };
}

/** The end of a run: it settles once `close()` was called and every call has its answer. */
export type RunEnd = {
  readonly finished: Promise<ToolRunResult>;
  readonly closed: boolean;
  /** No more calls will be added. */
  close(): void;
  /** Settles the run if it is closed and every call is answered; later calls do nothing. */
  check(): void;
};

export function createRunEnd(options: {
  readonly entries: readonly CallEntry[];
  readonly stops: RunStops;
  readonly budgetChars: number | undefined;
  readonly resultStore: ResultStore | undefined;
  /** Runs once, as the run settles. */
  readonly onSettle: () => void;
}): RunEnd {
  let closed = false;
  let settled = false;
  let resolveFinished!: (result: ToolRunResult) => void;
  const finished = new Promise<ToolRunResult>((resolve) => (resolveFinished = resolve));
  const check = (): void => {
    if (settled || !closed || !options.entries.every((entry) => entry.state === 'done')) return;
    settled = true;
    options.onSettle();
    void settleRun(options).then(resolveFinished);
  };
  return {
    finished,
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      check();
    },
    check,
  };
}
