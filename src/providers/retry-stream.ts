import type { ModelStreamEvent } from '../contract/provider.js';
import { createIdleWatch, DEFAULT_STREAM_IDLE_TIMEOUT_MS, type IdleWatch } from './idle-watch.js';
import { ProviderError, toProviderError } from './provider-error.js';

/** Retries after the first attempt by default: with the default backoff, about 2.5 minutes of trying. */
export const DEFAULT_MAX_RETRIES = 10;

/** How a provider retries a failed model request. */
export type RetryOptions = {
  /** Further attempts after the first one. Default {@link DEFAULT_MAX_RETRIES}. `0` disables retries. */
  readonly maxRetries?: number;
  /** Backoff before the first retry, doubled each time, in ms. Default 500. */
  readonly initialDelayMs?: number;
  /** Upper bound of the computed backoff, in ms. Default 32 000. */
  readonly maxDelayMs?: number;
  /** Upper bound of a delay the API asks for with `retry-after`, in ms. Default 60 000. */
  readonly maxRetryAfterMs?: number;
  /** Told before each wait, e.g. to show "retrying in 2 s" to a person. */
  readonly onRetry?: (info: RetryInfo) => void;
};

/** One retry about to happen. */
export type RetryInfo = {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the provider waits before the next attempt, in ms. */
  readonly delayMs: number;
  readonly error: ProviderError;
};

/** Backoff before retry number `attempt` (from 1): doubling from the initial delay, capped, with up to 25% jitter off. */
export function backoffDelay(attempt: number, retry: RetryOptions | undefined): number {
  const initial = retry?.initialDelayMs ?? 500;
  const cap = retry?.maxDelayMs ?? 32_000;
  const base = Math.min(cap, initial * 2 ** (attempt - 1));
  return Math.round(base * (1 - Math.random() * 0.25));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `open` and yields its events. An attempt that fails before any of its tool calls started
 * (rate limit, overload, server or connection error, a stream cut or idle past `idleMs`) is tried
 * again after a wait (the API's `retry-after` when given, else backoff), announced by a `retry`
 * event: text the failed attempt streamed is void. Once a `tool-use-start` reached the caller
 * nothing is retried: the failure surfaces as a {@link ProviderError}.
 */
export async function* streamWithRetries(options: {
  readonly provider: string;
  readonly retry: RetryOptions | undefined;
  /** Time an attempt may go without an event, in ms. Default {@link DEFAULT_STREAM_IDLE_TIMEOUT_MS}. */
  readonly idleMs?: number;
  readonly signal: AbortSignal;
  readonly open: (watch: IdleWatch) => AsyncIterable<ModelStreamEvent>;
}): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { provider, retry, signal, open } = options;
  const maxRetries = retry?.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let attempt = 1; ; attempt += 1) {
    let callStarted = false;
    const watch = createIdleWatch({ provider, idleMs: options.idleMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS, signal });
    try {
      if (signal.aborted) throw signal.reason;
      for await (const event of open(watch)) {
        if (event.type === 'tool-use-start') callStarted = true;
        yield event;
      }
      return;
    } catch (error) {
      const failure = toProviderError({ provider, error, signal, streamStarted: callStarted }).withAttempts(attempt);
      if (!failure.retryable || callStarted || attempt > maxRetries) throw failure;
      const delayMs =
        failure.retryAfterMs === undefined
          ? backoffDelay(attempt, retry)
          : Math.min(failure.retryAfterMs, retry?.maxRetryAfterMs ?? 60_000);
      retry?.onRetry?.({ attempt, delayMs, error: failure });
      yield {
        type: 'retry',
        attempt,
        maxRetries,
        delayMs,
        message: failure.detail,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      };
      try {
        await sleep(delayMs, signal);
      } catch (abortReason) {
        throw new ProviderError({
          provider,
          kind: 'aborted',
          message: 'the model request was aborted while waiting to retry',
          attempts: attempt,
          cause: abortReason,
        });
      }
    } finally {
      watch.dispose();
    }
  }
}
