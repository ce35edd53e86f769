import { describe, expect, it } from 'vitest';
import { ToolplaneError } from '../errors/index.js';
import { isRetryableStatus, parseRetryAfter, ProviderError, toProviderError } from './provider-error.js';

const live = new AbortController().signal;

describe('parseRetryAfter', () => {
  it('prefers retry-after-ms, then reads seconds or an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(0);
  });

  it('ignores missing, negative and unreadable values', () => {
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-1' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': 'x', 'retry-after': '1' }))).toBe(1000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it('retries timeouts, conflicts, rate limits and server errors only', () => {
    expect([408, 409, 429, 500, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('toProviderError', () => {
  it('reads status, type, message and retry-after from an Anthropic SDK error', () => {
    const sdkError = Object.assign(new Error('429 {"type":"error"}'), {
      status: 429,
      headers: new Headers({ 'retry-after': '4' }),
      error: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests exceeded' } },
    });
    const error = toProviderError({ provider: 'anthropic', error: sdkError, signal: live, streamStarted: false });
    expect(error).toBeInstanceOf(ToolplaneError);
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toBe('anthropic: HTTP 429 rate_limit_error: Number of requests exceeded');
    expect(error).toMatchObject({
      kind: 'http',
      status: 429,
      apiErrorType: 'rate_limit_error',
      retryAfterMs: 4000,
      retryable: true,
    });
  });

  it('reads an OpenAI SDK error, whose payload is the inner error object', () => {
    const sdkError = Object.assign(new Error('400 bad'), {
      status: 400,
      headers: new Headers(),
      error: { message: "Invalid 'messages[1]'", type: 'invalid_request_error', code: null },
    });
    const error = toProviderError({ provider: 'openai', error: sdkError, signal: live, streamStarted: false });
    expect(error).toMatchObject({
      status: 400,
      apiErrorType: 'invalid_request_error',
      apiMessage: "Invalid 'messages[1]'",
      retryable: false,
    });
  });

  it('never marks a failure retryable once the stream started', () => {
    const sdkError = Object.assign(new Error('overloaded'), {
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(toProviderError({ provider: 'a', error: sdkError, signal: live, streamStarted: false }).retryable).toBe(
      true,
    );
    const late = toProviderError({ provider: 'a', error: sdkError, signal: live, streamStarted: true });
    expect(late).toMatchObject({ kind: 'stream', retryable: false });
  });

  it('keeps the causes of a broken stream readable and does not retry unknown faults', () => {
    const broken = new TypeError('terminated', { cause: new Error('other side closed') });
    const error = toProviderError({ provider: 'a', error: broken, signal: live, streamStarted: true });
    expect(error.message).toBe('a: the response stream failed: terminated: other side closed');
    const early = toProviderError({ provider: 'a', error: new Error('boom'), signal: live, streamStarted: false });
    expect(early).toMatchObject({ kind: 'invalid-response', retryable: false });
  });

  it('reports any failure after an abort as the abort', () => {
    const controller = new AbortController();
    controller.abort();
    const quiet = new ProviderError({ provider: 'a', kind: 'stream', message: 'ended early' });
    expect(toProviderError({ provider: 'a', error: quiet, signal: controller.signal, streamStarted: true }).kind).toBe(
      'aborted',
    );
  });

  it('counts attempts in the message without losing the details', () => {
    const error = new ProviderError({ provider: 'a', kind: 'http', message: 'HTTP 529', status: 529, retryable: true });
    const counted = error.withAttempts(3);
    expect(counted.message).toBe('a: HTTP 529 (after 3 attempts)');
    expect(counted).toMatchObject({ status: 529, attempts: 3, retryable: true, detail: 'HTTP 529' });
    expect(error.withAttempts(1)).toBe(error);
  });
});
