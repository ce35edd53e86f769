import type { CallEntry } from './call-entry.js';

/** The calls of one run in the order the model sent them, and which is the next to start. */
export type CallQueue = {
  /** Every call, in `tool_use` order (answered ones included). */
  readonly entries: readonly CallEntry[];
  has(toolUseId: string): boolean;
  push(entry: CallEntry): void;
  /** The first call still queued, or `undefined`; it stays first until `take()`. */
  peek(): CallEntry | undefined;
  /** Moves past the call `peek()` returned. */
  take(): void;
};

export function createCallQueue(): CallQueue {
  const entries: CallEntry[] = [];
  const ids = new Set<string>();
  let next = 0; // index of the first entry not yet started
  return {
    entries,
    has: (toolUseId) => ids.has(toolUseId),
    push(entry) {
      entries.push(entry);
      ids.add(entry.prepared.block.id);
    },
    peek() {
      // A call answered before its turn (cancelled, aborted) is passed over.
      while (next < entries.length && entries[next]!.state !== 'queued') next++;
      return entries[next];
    },
    take() {
      next++;
    },
  };
}
