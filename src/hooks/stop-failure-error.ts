import { ToolplaneError } from '../errors/toolplane-error.js';
import type { StopFailureError } from './event-values.js';

/** What a StopFailure hook is told about the error that ended a turn. */
export type StopFailureCause = { readonly error: StopFailureError; readonly errorDetails: string };

const BY_API_TYPE: ReadonlyMap<string, StopFailureError> = new Map([
  ['authentication_error', 'authentication_failed'],
  ['permission_error', 'authentication_failed'],
  ['billing_error', 'billing_error'],
  ['insufficient_quota', 'billing_error'],
  ['rate_limit_error', 'rate_limit'],
  ['overloaded_error', 'server_error'],
  ['api_error', 'server_error'],
  ['invalid_request_error', 'invalid_request'],
  ['not_found_error', 'invalid_request'],
  ['request_too_large', 'invalid_request'],
]);

function byStatus(status: number | undefined): StopFailureError {
  if (status === undefined) return 'unknown';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

/**
 * The StopFailure a turn's error calls for: a model request that failed (code `PROVIDER_ERROR`,
 * after its retries), classed by the API's own error type, else by the HTTP status; one with
 * neither (a refused connection, a broken stream) is `unknown`, its details saying what happened.
 * Any other error (an abort, the transcript, a hook) is no API error: undefined.
 */
export function stopFailureOf(error: unknown): StopFailureCause | undefined {
  if (!(error instanceof ToolplaneError) || error.code !== 'PROVIDER_ERROR') return undefined;
  // Read by shape: the hooks see the provider's error only through the leaves.
  const fields = error as ToolplaneError & { kind?: unknown; status?: unknown; apiErrorType?: unknown };
  if (fields.kind === 'aborted') return undefined;
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  const apiType = typeof fields.apiErrorType === 'string' ? BY_API_TYPE.get(fields.apiErrorType) : undefined;
  return { error: apiType ?? byStatus(status), errorDetails: error.message };
}
