import { ProviderError, describeCause } from './provider-error.js';

/** Default time a response may go without an event before it is abandoned, in ms. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000;

/**
 * A watchdog over one attempt of a streamed request: the request and then each event of its
 * stream must arrive within `idleMs` of the previous one (time the caller spends on an event does
 * not count). Past it, the attempt's signal aborts and the wait fails with a retryable
 * `ProviderError`, so the request is tried again instead of hanging until the SDK's time limit.
 */
export type IdleWatch = {
  /** The attempt's signal: aborts with the caller's signal, or when the stream goes idle. */
  readonly signal: AbortSignal;
  /** Waits for the request (its response headers) under the watch. */
  guard<T>(request: Promise<T>): Promise<T>;
  /**
   * The SDK's stream under the watch. A failure while reading it that is not the API's own error
   * (a reset socket, a body cut short) becomes a retryable "stream was cut" `ProviderError`.
   */
  wrap<T>(events: AsyncIterable<T>): AsyncGenerator<T, void, undefined>;
  /** Stops the timer. Call once the attempt is over. */
  dispose(): void;
};

/** Creates the watch for one attempt; `idleMs` of 0 or less, or not finite, turns the timer off. */
export function createIdleWatch(options: {
  readonly provider: string;
  readonly idleMs: number;
  readonly signal: AbortSignal;
}): IdleWatch {
  const controller = new AbortController();
  const { idleMs, provider } = options;
  const onOuterAbort = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) onOuterAbort();
  else options.signal.addEventListener('abort', onOuterAbort, { once: true });
  const idleError = () =>
    new ProviderError({
      provider,
      kind: 'stream',
      message: `no event from the API for ${idleMs} ms; the stream was abandoned`,
      retryable: true,
    });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fired: ProviderError | undefined;
  const disarm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  /** A promise that rejects when the watch fires before it is disarmed. */
  const armed = (): Promise<never> => {
    disarm();
    return new Promise<never>((_resolve, reject) => {
      if (!(idleMs > 0) || !Number.isFinite(idleMs)) return;
      timer = setTimeout(() => {
        fired = idleError();
        controller.abort(fired);
        reject(fired);
      }, idleMs);
    });
  };
  const within = async <T>(work: Promise<T>): Promise<T> => {
    const idle = armed();
    idle.catch(() => undefined);
    try {
      return await Promise.race([work, idle]);
    } catch (error) {
      throw fired ?? error;
    } finally {
      disarm();
    }
  };

  return {
    signal: controller.signal,
    guard: within,
    async *wrap(events) {
      const iterator = events[Symbol.asyncIterator]();
      let done = false;
      try {
        for (;;) {
          let step: IteratorResult<unknown>;
          try {
            step = await within(iterator.next());
          } catch (error) {
            done = true;
            throw asCut(error, { provider, aborted: options.signal.aborted });
          }
          // An SDK may end a stream quietly when its signal aborts.
          if (fired) throw fired;
          if (step.done) {
            done = true;
            return;
          }
          yield step.value as never;
        }
      } finally {
        if (!done) void Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
    },
    dispose() {
      disarm();
      options.signal.removeEventListener('abort', onOuterAbort);
    },
  };
}

/** A failure while reading the body that is not the API's own error: the stream was cut. */
function asCut(error: unknown, options: { readonly provider: string; readonly aborted: boolean }): unknown {
  if (options.aborted || error instanceof ProviderError) return error;
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  if (typeof record['status'] === 'number' || record['error'] !== undefined) return error;
  return new ProviderError({
    provider: options.provider,
    kind: 'stream',
    message: `the response stream was cut: ${describeCause(error)}`,
    retryable: true,
    cause: error,
  });
}
