import { describe, expect, it } from 'vitest';
import { describeRetryCountdown } from './retry-countdown.js';

describe('describeRetryCountdown', () => {
  const countdown = { until: 10_000, attempt: 2, maxRetries: 10, reason: 'the API is overloaded (HTTP 529)' };
  it('counts whole seconds, rounded up', () => {
    expect(describeRetryCountdown(countdown, 6_500)).toBe(
      'retrying in 4s (attempt 2 of 10): the API is overloaded (HTTP 529)',
    );
    expect(describeRetryCountdown(countdown, 9_999)).toMatch(/^retrying in 1s/);
  });
  it('says "now" once the wait is over', () => {
    expect(describeRetryCountdown(countdown, 10_000)).toMatch(/^retrying now \(attempt 2 of 10\)/);
  });
});
