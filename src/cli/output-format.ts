import type { Usage } from '../contract/provider.js';
import { randomUUID } from 'node:crypto';
import type { LoopEvent, LoopStatus, QueryResult } from '../session/index.js';

/** The `result` object of `--output-format json` (and the last line of `stream-json`). */
export type ResultObject = {
  readonly type: 'result';
  readonly subtype: Exclude<LoopStatus, 'aborted'>;
  readonly is_error: boolean;
  readonly result: string;
  readonly session_id: string;
  readonly num_turns: number;
  readonly duration_ms: number;
  readonly usage: {
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cache_read_input_tokens: number;
    readonly cache_creation_input_tokens: number;
  };
  readonly permission_denials: QueryResult['permissionDenials'];
  readonly structured_output?: unknown;
  readonly error?: string;
  /** On an error subtype: what went wrong, as the Agent SDK reads it (it fails on an error result without it). */
  readonly errors?: readonly string[];
};

/** The reference's subtypes are the loop's statuses; an aborted run is an error during execution. */
function subtypeOf(status: LoopStatus): ResultObject['subtype'] {
  return status === 'aborted' ? 'error_during_execution' : status;
}

function usageOf(usage: Usage): ResultObject['usage'] {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
  };
}

/** Builds the result object in the reference's shape. */
export function toResultObject(
  result: QueryResult,
  options: { readonly sessionId: string; readonly durationMs: number; readonly interrupted: boolean },
): ResultObject {
  const isError = result.status !== 'success' || options.interrupted;
  return {
    type: 'result',
    subtype: options.interrupted ? 'error_during_execution' : subtypeOf(result.status),
    is_error: isError,
    result: result.text,
    session_id: options.sessionId,
    num_turns: result.turns,
    duration_ms: Math.round(options.durationMs),
    usage: usageOf(result.usage),
    permission_denials: result.permissionDenials,
    ...(result.requiredToolInput !== undefined ? { structured_output: result.requiredToolInput } : {}),
    ...(result.error ? { error: result.error.message } : options.interrupted ? { error: 'interrupted' } : {}),
    ...(isError ? { errors: [errorText(result, options.interrupted)] } : {}),
  };
}

function errorText(result: QueryResult, interrupted: boolean): string {
  if (result.error) return result.error.message;
  if (interrupted || result.status === 'aborted') return 'interrupted';
  if (result.status === 'error_max_turns') return 'the run reached its limit of turns (--max-turns)';
  if (result.status === 'error_max_structured_output_retries')
    return 'the structured output was not given after the allowed attempts';
  return result.status;
}

/**
 * A retry of the model request as stream-json shows it: Claude Code's `system` event of subtype
 * `api_retry` (retry `attempt` of `max_retries`, the wait in ms, the HTTP status or null).
 */
export function apiRetryEvent(event: Extract<LoopEvent, { type: 'retry' }>, sessionId: string) {
  return {
    type: 'system',
    subtype: 'api_retry',
    attempt: event.attempt,
    max_retries: event.maxRetries,
    retry_delay_ms: event.delayMs,
    error_status: event.status ?? null,
    error: event.message,
    uuid: randomUUID(),
    session_id: sessionId,
  };
}
