/**
 * A `notifications/tools/list_changed` handler for one client: refreshes never overlap, and one
 * more runs when asked meanwhile. Each refresh gets a signal of its own, tied to `signal` (the
 * connection's): the SDK adds an abort listener to a request's signal and never removes it, so on
 * the connection's signal every refresh would leave one behind for the connection's life.
 */
export function createListChangedHandler(options: {
  /** Whether the client is still the connection's current one. */
  readonly isCurrent: () => boolean;
  readonly signal: AbortSignal;
  readonly refresh: (signal: AbortSignal) => Promise<void>;
  readonly onError: (error: unknown) => void;
}): () => void {
  const { signal } = options;
  let refreshing = false;
  let again = false;
  const run = async (): Promise<void> => {
    do {
      again = false;
      const refresh = new AbortController();
      const forward = (): void => refresh.abort(signal.reason);
      signal.addEventListener('abort', forward, { once: true });
      if (signal.aborted) forward();
      try {
        await options.refresh(refresh.signal);
      } catch (error) {
        if (!signal.aborted) options.onError(error);
      } finally {
        signal.removeEventListener('abort', forward);
      }
    } while (again && !signal.aborted && options.isCurrent());
    refreshing = false;
  };
  return () => {
    if (!options.isCurrent()) return;
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    void run();
  };
}
