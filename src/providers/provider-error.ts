import { ToolplaneError, describeError } from '../errors/index.js';

/** What kind of failure a provider met. */
export type ProviderErrorKind =
  /** The API answered with an HTTP error status. */
  | 'http'
  /** No answer: refused connection, reset socket, DNS failure, timeout. */
  | 'connection'
  /** The response stream failed or ended early after it had started. */
  | 'stream'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The API answered with something this provider cannot read. */
  | 'invalid-response';

/**
 * A model request that failed, with code `PROVIDER_ERROR`. Carries the HTTP status and the API's
 * own error type and message when there was one, and whether another attempt could succeed.
 */
export class ProviderError extends ToolplaneError {
  /** Name of the provider that failed (`anthropic`, `openai`, …). */
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  /** What went wrong, without the provider prefix and attempt count. */
  readonly detail: string;
  /** HTTP status of the failed response, when the API answered. */
  readonly status: number | undefined;
  /** The API's error type (`rate_limit_error`, `overloaded_error`, …), when it sent one. */
  readonly apiErrorType: string | undefined;
  /** The API's own message, when it sent one. */
  readonly apiMessage: string | undefined;
  /** Delay the API asked for before another attempt (from `retry-after-ms` or `retry-after`). */
  readonly retryAfterMs: number | undefined;
  /** True when the same request may succeed later (429, 5xx, 529, connection failures). */
  readonly retryable: boolean;
  /** Attempts made before giving up (1 when no retry happened). */
  readonly attempts: number;

  constructor(options: ProviderErrorOptions) {
    const attempts = options.attempts ?? 1;
    const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    super('PROVIDER_ERROR', `${options.provider}: ${options.message}${suffix}`, { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.kind = options.kind;
    this.detail = options.message;
    this.status = options.status;
    this.apiErrorType = options.apiErrorType;
    this.apiMessage = options.apiMessage;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable ?? false;
    this.attempts = attempts;
  }

  /** The same error, recording how many attempts were made. */
  withAttempts(attempts: number): ProviderError {
    if (attempts === this.attempts) return this;
    return new ProviderError({
      provider: this.provider,
      kind: this.kind,
      message: this.detail,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.apiErrorType === undefined ? {} : { apiErrorType: this.apiErrorType }),
      ...(this.apiMessage === undefined ? {} : { apiMessage: this.apiMessage }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      retryable: this.retryable,
      attempts,
      cause: this.cause,
    });
  }
}

/** Fields of a {@link ProviderError}. */
export type ProviderErrorOptions = {
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  readonly message: string;
  readonly status?: number;
  readonly apiErrorType?: string;
  readonly apiMessage?: string;
  readonly retryAfterMs?: number;
  readonly retryable?: boolean;
  readonly attempts?: number;
  readonly cause?: unknown;
};

/** HTTP statuses worth another attempt: timeouts, conflicts, rate limits, server errors, overload. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

type HeaderSource = { get(name: string): string | null };

function isHeaderSource(value: unknown): value is HeaderSource {
  return typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function';
}

/** Parses `retry-after-ms`, then `retry-after` (seconds or an HTTP date), into milliseconds. */
export function parseRetryAfter(headers: unknown, now: number = Date.now()): number | undefined {
  if (!isHeaderSource(headers)) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '') {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function readString(record: unknown, key: string): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function readRecord(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null) return undefined;
  return (record as Record<string, unknown>)[key];
}

/**
 * Reads the error type and message out of an SDK error's `error` payload. Anthropic's SDK keeps the
 * whole body (`{type:'error', error:{type, message}}`); OpenAI's keeps the inner object
 * (`{message, type, code}`).
 */
function readApiError(payload: unknown): { type?: string; message?: string } {
  const inner = readRecord(payload, 'error');
  const source = typeof inner === 'object' && inner !== null ? inner : payload;
  const type = readString(source, 'type') ?? readString(source, 'code');
  const message = readString(source, 'message');
  return { ...(type === undefined ? {} : { type }), ...(message === undefined ? {} : { message }) };
}

/** In-stream error types that mean "try again later" (Anthropic's and OpenAI-compatible servers'). */
const TRANSIENT_STREAM_ERRORS = new Set(['overloaded_error', 'rate_limit_error', 'api_error', 'server_error']);

const CONNECTION_ERROR_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError', 'FetchError']);

/**
 * Turns anything an SDK threw into a {@link ProviderError}. Understands both official SDKs' error
 * shapes by duck typing (`status`, `headers`, `error`), so it needs neither SDK at runtime.
 */
export function toProviderError(options: {
  readonly provider: string;
  readonly error: unknown;
  readonly signal: AbortSignal;
  /** True once any event of this response reached the caller (a failure then is a stream failure). */
  readonly streamStarted: boolean;
}): ProviderError {
  const { provider, error, signal, streamStarted } = options;
  // Once the caller aborted, whatever failed next (an SDK that ends the stream quietly, a reset
  // socket) is the abort.
  if (signal.aborted) {
    if (error instanceof ProviderError && error.kind === 'aborted') return error;
    return new ProviderError({ provider, kind: 'aborted', message: 'the model request was aborted', cause: error });
  }
  if (error instanceof ProviderError) return error;
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const status = typeof record['status'] === 'number' ? record['status'] : undefined;
  const api = readApiError(record['error']);
  if (status !== undefined) {
    const retryAfterMs = parseRetryAfter(record['headers']);
    const detail = api.message ?? describeError(error);
    return new ProviderError({
      provider,
      kind: 'http',
      message: `HTTP ${status}${api.type === undefined ? '' : ` ${api.type}`}: ${detail}`,
      status,
      ...(api.type === undefined ? {} : { apiErrorType: api.type }),
      ...(api.message === undefined ? {} : { apiMessage: api.message }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      retryable: !streamStarted && isRetryableStatus(status),
      cause: error,
    });
  }
  if (api.type !== undefined || api.message !== undefined) {
    // An error event inside an open stream (Anthropic's `event: error`, OpenAI's `{"error":…}` chunk).
    const overloaded = api.type !== undefined && TRANSIENT_STREAM_ERRORS.has(api.type);
    return new ProviderError({
      provider,
      kind: 'stream',
      message: `error in the response stream${api.type === undefined ? '' : ` (${api.type})`}: ${api.message ?? describeError(error)}`,
      ...(api.type === undefined ? {} : { apiErrorType: api.type }),
      ...(api.message === undefined ? {} : { apiMessage: api.message }),
      retryable: !streamStarted && overloaded,
      cause: error,
    });
  }
  // OpenAI's SDK leaves `name` as "Error"; the class name tells its connection errors apart.
  const name = error instanceof Error ? (error.name === 'Error' ? error.constructor.name : error.name) : '';
  if (!streamStarted && CONNECTION_ERROR_NAMES.has(name)) {
    return new ProviderError({
      provider,
      kind: 'connection',
      message: `could not reach the API: ${describeCause(error)}`,
      retryable: true,
      cause: error,
    });
  }
  // Anything else (a broken body, a client-side fault) is not known to be transient: surface it.
  return new ProviderError({
    provider,
    kind: streamStarted ? 'stream' : 'invalid-response',
    message: `${streamStarted ? 'the response stream failed' : 'the request failed'}: ${describeCause(error)}`,
    cause: error,
  });
}

/** The message of an error and of its causes, so "terminated: other side closed" stays readable. */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    const text = describeError(current);
    if (text !== '' && !parts.includes(text)) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ') || 'unknown failure';
}
