import { describe, expect, it } from 'vitest';
import { createIdleWatch } from './idle-watch.js';
import { ProviderError } from './provider-error.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function* slowly(gaps: readonly number[]): AsyncGenerator<number> {
  for (const [index, gap] of gaps.entries()) {
    await pause(gap);
    yield index;
  }
}

describe('createIdleWatch', () => {
  it('abandons a stream whose next event does not come in time, and aborts the attempt', async () => {
    const watch = createIdleWatch({ provider: 'p', idleMs: 40, signal: new AbortController().signal });
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const value of watch.wrap(slowly([0, 0, 5_000]))) seen.push(value);
    } catch (error) {
      caught = error;
    }
    watch.dispose();
    expect(seen).toEqual([0, 1]);
    expect(caught).toBeInstanceOf(ProviderError);
    expect(caught).toMatchObject({ kind: 'stream', retryable: true });
    expect((caught as Error).message).toBe('p: no event from the API for 40 ms; the stream was abandoned');
    expect(watch.signal.aborted).toBe(true);
  });

  it('does not count the time the caller spends on an event', async () => {
    const watch = createIdleWatch({ provider: 'p', idleMs: 40, signal: new AbortController().signal });
    const seen: number[] = [];
    for await (const value of watch.wrap(slowly([0, 0, 0]))) {
      seen.push(value);
      await pause(120);
    }
    watch.dispose();
    expect(seen).toEqual([0, 1, 2]);
    expect(watch.signal.aborted).toBe(false);
  });

  it('turns a failure while reading into a retryable cut, and leaves the API’s own errors alone', async () => {
    const cut = createIdleWatch({ provider: 'p', idleMs: 0, signal: new AbortController().signal });
    const broken = (async function* () {
      yield* [];
      throw new TypeError('terminated', { cause: new Error('other side closed') });
    })();
    await expect(cut.wrap(broken).next()).rejects.toMatchObject({
      kind: 'stream',
      retryable: true,
      message: 'p: the response stream was cut: terminated: other side closed',
    });
    const apiError = Object.assign(new Error('Overloaded'), { error: { type: 'overloaded_error' } });
    const api = (async function* () {
      yield* [];
      throw apiError;
    })();
    await expect(cut.wrap(api).next()).rejects.toBe(apiError);
  });

  it('waits for the request itself under the same limit', async () => {
    const watch = createIdleWatch({ provider: 'p', idleMs: 30, signal: new AbortController().signal });
    await expect(watch.guard(pause(5_000))).rejects.toMatchObject({ kind: 'stream', retryable: true });
    watch.dispose();
  });
});
