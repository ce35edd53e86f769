/** A model request waiting to be tried again, as the UI counts it down. */
export type RetryCountdown = {
  /** When the next attempt starts, in ms since the epoch. */
  readonly until: number;
  /** The retry about to happen, from 1. */
  readonly attempt: number;
  /** The retry limit (`--max-retries`, setting `maxRetries`). */
  readonly maxRetries: number;
  /** Why the last attempt failed, in words for people. */
  readonly reason: string;
};

/**
 * The line shown while a request waits to be retried: `retrying in 3s (attempt 1 of 10): the API
 * is overloaded (HTTP 529)`. Whole seconds, rounded up, so it never shows 0 before the attempt;
 * `retrying now` once the wait is over. `now` is in ms since the epoch.
 */
export function describeRetryCountdown(countdown: RetryCountdown, now: number): string {
  const seconds = Math.ceil((countdown.until - now) / 1000);
  const when = seconds > 0 ? `retrying in ${seconds}s` : 'retrying now';
  return `${when} (attempt ${countdown.attempt} of ${countdown.maxRetries}): ${countdown.reason}`;
}
