import type { CallEntry } from './call-entry.js';

/** Where a call would start now: not yet, with the calls running, or as a new batch. */
export type Placement = 'wait' | 'join' | 'new-batch';

/**
 * The run's slots. A call holds one from its start until its code settles, answered or not (or,
 * if it ignores its abort, until it is abandoned), so an unsafe call never overlaps a stopped call
 * that is still winding down. Safe calls share up to `maxConcurrency` slots; an unsafe call runs alone.
 */
export type ConcurrencySlots = {
  place(concurrencySafe: boolean): Placement;
  occupy(entry: CallEntry): void;
  /** Frees the call's slot; false when it held none (already released or abandoned). */
  release(entry: CallEntry): boolean;
  /** An answered call that still holds its slot gives it up after `abandonAfterMs` at the latest. */
  abandonLater(entry: CallEntry, release: () => void): void;
};

export function createConcurrencySlots(options: {
  readonly maxConcurrency: number;
  readonly abandonAfterMs: number;
}): ConcurrencySlots {
  const occupying = new Set<CallEntry>();
  const abandonTimers = new Map<CallEntry, ReturnType<typeof setTimeout>>();
  let occupyingUnsafe = 0;
  return {
    place(concurrencySafe) {
      if (!concurrencySafe) return occupying.size > 0 ? 'wait' : 'new-batch';
      if (occupyingUnsafe > 0 || occupying.size >= options.maxConcurrency) return 'wait';
      return occupying.size === 0 ? 'new-batch' : 'join';
    },
    occupy(entry) {
      occupying.add(entry);
      if (!entry.prepared.concurrencySafe) occupyingUnsafe++;
    },
    release(entry) {
      if (!occupying.delete(entry)) return false;
      if (!entry.prepared.concurrencySafe) occupyingUnsafe--;
      const abandon = abandonTimers.get(entry);
      if (abandon) {
        clearTimeout(abandon);
        abandonTimers.delete(entry);
      }
      return true;
    },
    abandonLater(entry, release) {
      if (!occupying.has(entry)) return;
      const abandon = setTimeout(release, options.abandonAfterMs);
      abandon.unref?.();
      abandonTimers.set(entry, abandon);
    },
  };
}
