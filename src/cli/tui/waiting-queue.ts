/** An item waiting for the person, in the order items arrived. */
export type Waiting<T> = { readonly id: number; readonly item: T };

/**
 * Items that wait for a person's answer, shown one at a time in arrival order. An item whose
 * signal aborts leaves the queue and its promise rejects with `abortMessage`.
 */
export type WaitingQueue<T, R> = {
  /** Adds an item; settles with the person's answer. */
  enqueue(item: T, signal: AbortSignal): Promise<R>;
  /** The item to show, if any. */
  current(): Waiting<T> | undefined;
  /** Settles item `id`; a stale id is ignored. */
  answer(id: number, response: R): void;
  /** Called whenever the first item changes. Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
};

type Entry<T, R> = Waiting<T> & { readonly settle: (response: R) => void };

/** Creates an empty {@link WaitingQueue}. */
export function createWaitingQueue<T, R>(options: { readonly abortMessage: string }): WaitingQueue<T, R> {
  const waiting: Entry<T, R>[] = [];
  const listeners = new Set<() => void>();
  let nextId = 1;
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const remove = (id: number) => {
    const index = waiting.findIndex((entry) => entry.id === id);
    if (index < 0) return undefined;
    const [removed] = waiting.splice(index, 1);
    if (index === 0) notify();
    return removed;
  };

  return {
    enqueue(item, signal) {
      if (signal.aborted) return Promise.reject(new Error(options.abortMessage));
      return new Promise<R>((resolve, reject) => {
        const id = nextId++;
        const onAbort = () => {
          remove(id);
          reject(new Error(options.abortMessage));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push({
          id,
          item,
          settle: (response) => {
            signal.removeEventListener('abort', onAbort);
            resolve(response);
          },
        });
        if (waiting.length === 1) notify();
      });
    },
    current() {
      const first = waiting[0];
      return first ? { id: first.id, item: first.item } : undefined;
    },
    answer(id, response) {
      remove(id)?.settle(response);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
