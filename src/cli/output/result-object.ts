import { randomUUID } from 'node:crypto';
import type { PriceTable } from '../../providers/index.js';
import {
  CONTEXT_WINDOW_TOKENS,
  DEFAULT_MAX_TOKENS,
  type LoopStatus,
  type QueryResult,
  type SpendingMeter,
} from '../../session/index.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { apiStopReason, apiUsageOf, modelUsageOf, type ModelLimits } from './sdk-usage.js';

/** What a result object is built from besides the run's own result. */
type ResultContext = {
  readonly sessionId: string;
  readonly durationMs: number;
  readonly interrupted: boolean;
  readonly prices: PriceTable;
  readonly limits: ModelLimits;
  /** The session's meter: costs are the session's so far, its earlier prompts' and subagents' included. */
  readonly spending: SpendingMeter;
};

/** How a run ended, as the command saw it. */
export type RunEnd = { readonly durationMs: number; readonly interrupted: boolean };

/** The context of a result of `runtime`'s session: its id, its prices, its limits. */
export function resultContextOf(runtime: Runtime, run: RunEnd): ResultContext {
  return {
    ...run,
    sessionId: runtime.session.id(),
    prices: runtime.prices,
    spending: runtime.session.spending(),
    limits: { contextWindow: CONTEXT_WINDOW_TOKENS, maxOutputTokens: DEFAULT_MAX_TOKENS },
  };
}

/** The reference's subtypes are the loop's statuses; an aborted run is an error during execution. */
function subtypeOf(status: LoopStatus, interrupted: boolean): Exclude<LoopStatus, 'aborted'> {
  return interrupted || status === 'aborted' ? 'error_during_execution' : status;
}

/**
 * The `result` object of `--output-format json` (and the last line of `stream-json`), key for key
 * the Agent SDK's `SDKResultSuccess` or `SDKResultError`: a success carries the text as `result`,
 * an error carries no `result` but `errors`, which the SDK reads on every error result.
 */
export function toResultObject(result: QueryResult, context: ResultContext) {
  const subtype = subtypeOf(result.status, context.interrupted);
  const common = {
    type: 'result' as const,
    duration_ms: Math.round(context.durationMs),
    duration_api_ms: Math.round(result.apiDurationMs),
    num_turns: result.turns,
    stop_reason: apiStopReason(result.stopReason),
    total_cost_usd: context.spending.spentUsd(),
    usage: apiUsageOf(result.usage),
    modelUsage: modelUsageOf(context.spending.byModel(), context.prices, context.limits),
    permission_denials: result.permissionDenials.map((denial) => ({
      ...denial,
      tool_input: isRecord(denial.tool_input) ? denial.tool_input : {},
    })),
    uuid: randomUUID(),
    session_id: context.sessionId,
  };
  if (subtype === 'success')
    return {
      ...common,
      subtype,
      is_error: false as const,
      result: result.text,
      ...(result.requiredToolInput !== undefined ? { structured_output: result.requiredToolInput } : {}),
    };
  return { ...common, subtype, is_error: true as const, errors: [errorText(result, context.interrupted)] };
}

function errorText(result: QueryResult, interrupted: boolean): string {
  if (result.error) return result.error.message;
  if (interrupted || result.status === 'aborted') return 'interrupted';
  if (result.status === 'error_max_turns') return `Reached maximum number of turns (${result.turns})`;
  if (result.status === 'error_max_budget_usd')
    return `Reached maximum budget (--max-budget-usd): the session has spent it, so the next model request was not sent ($${result.costUsd.toFixed(4)} of it in this run)`;
  if (result.status === 'error_max_structured_output_retries')
    return 'the structured output was not given after the allowed attempts';
  return result.status;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
