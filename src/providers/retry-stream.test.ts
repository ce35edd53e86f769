import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../contract/provider.js';
import { ProviderError } from './provider-error.js';
import { backoffDelay, DEFAULT_MAX_RETRIES, streamWithRetries, type RetryInfo } from './retry-stream.js';

const transient = (): ProviderError =>
  new ProviderError({ provider: 'p', kind: 'http', message: 'HTTP 500', status: 500, retryable: true });

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, taking off at most a quarter as jitter', () => {
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const expected = Math.min(1000, 100 * 2 ** (attempt - 1));
      const delay = backoffDelay(attempt, { initialDelayMs: 100, maxDelayMs: 1000 });
      expect(delay).toBeLessThanOrEqual(expected);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(expected * 0.75));
    }
  });
});

describe('streamWithRetries', () => {
  it('retries failures that come before any event and passes the events of the attempt that works', async () => {
    let attempts = 0;
    const retries: RetryInfo[] = [];
    const events = await collect(
      streamWithRetries({
        provider: 'p',
        retry: { maxRetries: 3, initialDelayMs: 1, onRetry: (info) => retries.push(info) },
        signal: new AbortController().signal,
        async *open() {
          attempts += 1;
          if (attempts < 3) throw transient();
          yield { type: 'text-delta', text: 'ok' };
        },
      }),
    );
    expect(events.filter((event) => event.type !== 'retry')).toEqual([{ type: 'text-delta', text: 'ok' }]);
    expect(events.filter((event) => event.type === 'retry')).toEqual(
      retries.map((info) => ({
        type: 'retry',
        attempt: info.attempt,
        maxRetries: 3,
        delayMs: info.delayMs,
        message: 'HTTP 500',
        status: 500,
      })),
    );
    expect(retries.map((info) => info.attempt)).toEqual([1, 2]);
  });

  it('caps a long retry-after at maxRetryAfterMs', async () => {
    const retries: RetryInfo[] = [];
    let attempts = 0;
    await collect(
      streamWithRetries({
        provider: 'p',
        retry: { maxRetryAfterMs: 2, onRetry: (info) => retries.push(info) },
        signal: new AbortController().signal,
        async *open() {
          attempts += 1;
          if (attempts === 1) {
            throw new ProviderError({
              provider: 'p',
              kind: 'http',
              message: 'HTTP 429',
              retryable: true,
              retryAfterMs: 60_000,
            });
          }
          yield { type: 'text-delta', text: 'ok' };
        },
      }),
    );
    expect(retries[0]?.delayMs).toBe(2);
  });

  it('never retries once a tool call was passed on', async () => {
    let attempts = 0;
    const seen: ModelStreamEvent[] = [];
    const run = async () => {
      for await (const event of streamWithRetries({
        provider: 'p',
        retry: { initialDelayMs: 1 },
        signal: new AbortController().signal,
        async *open() {
          attempts += 1;
          yield { type: 'text-delta', text: 'partial' };
          yield { type: 'tool-use-start', id: 't1', name: 'Read' };
          throw transient();
        },
      })) {
        seen.push(event);
      }
    };
    await expect(run()).rejects.toMatchObject({ kind: 'http', attempts: 1 });
    expect(attempts).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('retries a failure after text but before any tool call, announcing it between the attempts', async () => {
    let attempts = 0;
    const events = await collect(
      streamWithRetries({
        provider: 'p',
        retry: { initialDelayMs: 1 },
        signal: new AbortController().signal,
        async *open() {
          attempts += 1;
          yield { type: 'text-delta', text: `attempt ${attempts}` };
          if (attempts === 1) throw transient();
        },
      }),
    );
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'retry', 'text-delta']);
    expect(events[2]).toEqual({ type: 'text-delta', text: 'attempt 2' });
  });

  it('keeps trying ten times by default', async () => {
    let attempts = 0;
    await expect(
      collect(
        streamWithRetries({
          provider: 'p',
          retry: { initialDelayMs: 0, maxDelayMs: 0 },
          signal: new AbortController().signal,
          async *open() {
            attempts += 1;
            yield* [];
            throw transient();
          },
        }),
      ),
    ).rejects.toMatchObject({ attempts: DEFAULT_MAX_RETRIES + 1 });
    expect(attempts).toBe(11);
  });

  it('does not retry when maxRetries is 0 or the failure is permanent', async () => {
    let attempts = 0;
    const open = async function* (): AsyncGenerator<ModelStreamEvent> {
      attempts += 1;
      yield* [];
      throw transient();
    };
    await expect(
      collect(
        streamWithRetries({ provider: 'p', retry: { maxRetries: 0 }, signal: new AbortController().signal, open }),
      ),
    ).rejects.toMatchObject({
      attempts: 1,
    });
    const permanent = async function* (): AsyncGenerator<ModelStreamEvent> {
      attempts += 1;
      yield* [];
      throw new ProviderError({ provider: 'p', kind: 'http', message: 'HTTP 400', status: 400 });
    };
    await expect(
      collect(
        streamWithRetries({ provider: 'p', retry: undefined, signal: new AbortController().signal, open: permanent }),
      ),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(attempts).toBe(2);
  });

  it('stops waiting for a retry when the signal fires', async () => {
    const controller = new AbortController();
    const run = collect(
      streamWithRetries({
        provider: 'p',
        retry: { initialDelayMs: 60_000, maxDelayMs: 60_000, onRetry: () => controller.abort() },
        signal: controller.signal,
        async *open() {
          yield* [];
          throw transient();
        },
      }),
    );
    await expect(run).rejects.toMatchObject({
      kind: 'aborted',
      message: 'p: the model request was aborted while waiting to retry',
    });
  });
});
