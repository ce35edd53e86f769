import type { StopReason, Usage } from '../contract/provider.js';

export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
};

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheReadInputTokens: (total.cacheReadInputTokens ?? 0) + (more.cacheReadInputTokens ?? 0),
    cacheCreationInputTokens: (total.cacheCreationInputTokens ?? 0) + (more.cacheCreationInputTokens ?? 0),
  };
}

/** The tokens a request's context held: new input plus what was read from or written to the cache. */
export function contextTokensOf(usage: Usage): number {
  return usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
}

/** How a run's spending is priced and capped (`--max-budget-usd`). */
export type RunCosts = {
  /** USD for `usage` on `model`; 0 for a model with no known price (a local one). */
  readonly costOf: (model: string, usage: Usage) => number;
  /** The run stops with `error_max_budget_usd` before a request once what was spent reaches this. */
  readonly maxUsd?: number;
  /**
   * Where every priced response is also counted as it completes — a session's meter, shared by
   * its prompts and its subagents' runs — so that `maxUsd` caps all of them together. Without
   * it a run's budget counts the run alone.
   */
  readonly meter?: SpendingMeter;
  /** Whether `model` has a price; a budget cannot cap one that has none, so no request goes to it. */
  readonly canPrice?: (model: string) => boolean;
};

/** Spending counted across runs: the session's. */
export type SpendingMeter = {
  charge(model: string, usage: Usage, usd: number): void;
  /** USD counted so far. */
  spentUsd(): number;
  /** Per model: tokens and USD counted so far. */
  byModel(): RunUsage['modelUsage'];
};

/** A meter that starts at zero. */
export function createSpendingMeter(): SpendingMeter {
  let spent = 0;
  const models: Record<string, { usage: Usage; costUsd: number }> = {};
  return {
    charge(model, usage, usd) {
      spent += usd;
      const before = models[model];
      models[model] = { usage: addUsage(before?.usage ?? ZERO_USAGE, usage), costUsd: (before?.costUsd ?? 0) + usd };
    },
    spentUsd: () => spent,
    byModel: () => Object.fromEntries(Object.entries(models).map(([name, entry]) => [name, { ...entry }])),
  };
}

/** What a run's model requests used: tokens per model, cost, time waiting for the API, the last stop reason. */
export type RunUsage = {
  readonly usage: Usage;
  /** Per model: its tokens and what they cost. */
  readonly modelUsage: Readonly<Record<string, { readonly usage: Usage; readonly costUsd: number }>>;
  readonly costUsd: number;
  readonly apiDurationMs: number;
  readonly stopReason: StopReason | undefined;
};

/** Counts each response of a run as it completes: on a meter of its own, and on the session's. */
export function createRunAccounting(costs: RunCosts | undefined) {
  const own = createSpendingMeter();
  let usage = ZERO_USAGE;
  let apiDurationMs = 0;
  let stopReason: StopReason | undefined;
  /** A budget is set and `model` has no price: the budget could not count a request to it. */
  const cannotPrice = (model: string): boolean =>
    costs?.maxUsd !== undefined && costs.canPrice !== undefined && !costs.canPrice(model);
  return {
    /** One response of `model`, `durationMs` after its request was sent. */
    response(model: string, response: { readonly usage: Usage; readonly stopReason?: StopReason }, durationMs: number) {
      const cost = costs?.costOf(model, response.usage) ?? 0;
      usage = addUsage(usage, response.usage);
      own.charge(model, response.usage, cost);
      costs?.meter?.charge(model, response.usage, cost);
      apiDurationMs += durationMs;
      if (response.stopReason !== undefined) stopReason = response.stopReason;
    },
    /** Time spent on a request that brought no complete response (it failed, or was cut). */
    waited(durationMs: number) {
      apiDurationMs += durationMs;
    },
    cannotPrice,
    /** The budget is spent, or cannot count a request to `model`: no further request may be sent. */
    overBudget(model?: string): boolean {
      if (costs?.maxUsd === undefined) return false;
      if (model !== undefined && cannotPrice(model)) return true;
      return (costs.meter ?? own).spentUsd() >= costs.maxUsd;
    },
    snapshot(): RunUsage {
      return { usage, modelUsage: own.byModel(), costUsd: own.spentUsd(), apiDurationMs, stopReason };
    },
  };
}

export type RunAccounting = ReturnType<typeof createRunAccounting>;
