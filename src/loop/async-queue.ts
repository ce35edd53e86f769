/**
 * A single-consumer queue bridging callbacks to an async generator: `push` never blocks, `next`
 * waits for an item or for `close`.
 */
export type AsyncQueue<T> = {
  push(item: T): void;
  close(): void;
  /** The next item, or `undefined` once closed and drained. */
  next(): Promise<T | undefined>;
  /** Takes every item available now, without waiting. */
  drain(): T[];
};

export function createAsyncQueue<T>(): AsyncQueue<T> {
  const items: T[] = [];
  let head = 0;
  let closed = false;
  let waiter: ((item: T | undefined) => void) | undefined;
  return {
    push(item) {
      if (closed) return;
      if (waiter) {
        const resolve = waiter;
        waiter = undefined;
        resolve(item);
      } else {
        items.push(item);
      }
    },
    close() {
      closed = true;
      if (waiter) {
        const resolve = waiter;
        waiter = undefined;
        resolve(undefined);
      }
    },
    drain() {
      const taken = items.slice(head);
      items.length = 0;
      head = 0;
      return taken;
    },
    next() {
      if (head < items.length) {
        const item = items[head++]!;
        if (head > 1024 && head * 2 > items.length) {
          items.splice(0, head);
          head = 0;
        }
        return Promise.resolve(item);
      }
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiter = resolve;
      });
    },
  };
}
