import type { McpManagerEvent } from './mcp-manager-types.js';

/** The manager's listeners: each event to each, a listener's fault never reaching the others. */
export function createMcpEventHub(): {
  emit(event: McpManagerEvent): void;
  /** Calls `listener` on every event until the returned function is called. */
  subscribe(listener: (event: McpManagerEvent) => void): () => void;
  clear(): void;
} {
  const listeners = new Set<(event: McpManagerEvent) => void>();
  return {
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // A listener's fault must not break the connections of every other listener.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear: () => listeners.clear(),
  };
}

/**
 * Waiters for the moment no server is pending any more: each resolves when `release` is called
 * with the servers settled (or at close), or when its own signal aborts.
 */
export function createSettleWaiters(isSettled: () => boolean): {
  wait(signal: AbortSignal, closed: boolean): Promise<void>;
  /** Resolves every waiter (at close, or once `isSettled()`). */
  release(): void;
} {
  const waiters = new Set<() => void>();
  return {
    wait(signal, closed) {
      return new Promise<void>((resolve) => {
        if (closed || signal.aborted || isSettled()) {
          resolve();
          return;
        }
        const finish = (): void => {
          waiters.delete(finish);
          signal.removeEventListener('abort', finish);
          resolve();
        };
        waiters.add(finish);
        signal.addEventListener('abort', finish, { once: true });
      });
    },
    release() {
      for (const finish of [...waiters]) finish();
    },
  };
}
