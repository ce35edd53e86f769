import type { ApprovalRequest, ApprovalResponse, Approver } from '../../contract/gates.js';

/** A request waiting for the person, in the order they arrived. */
export type PendingApproval = {
  readonly id: number;
  readonly request: ApprovalRequest;
};

/**
 * The terminal's Approver: the plane's requests wait in order, the dialog shows the first one,
 * and the person's answer settles it. A request whose signal aborts (the turn was interrupted)
 * leaves the queue and rejects, so the plane answers that call as aborted.
 */
export type ApprovalQueue = Approver & {
  /** The request the dialog should show, if any. */
  current(): PendingApproval | undefined;
  /** Settles request `id` with the person's answer; a stale id is ignored. */
  answer(id: number, response: ApprovalResponse): void;
  /** Called whenever the first request changes. Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
};

type Waiting = PendingApproval & {
  readonly settle: (response: ApprovalResponse) => void;
};

/** Creates an empty {@link ApprovalQueue}. */
export function createApprovalQueue(): ApprovalQueue {
  const waiting: Waiting[] = [];
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
    request(request, signal) {
      if (signal.aborted) return Promise.reject(new Error('The turn was interrupted before the person answered.'));
      return new Promise<ApprovalResponse>((resolve, reject) => {
        const id = nextId++;
        const onAbort = () => {
          remove(id);
          reject(new Error('The turn was interrupted before the person answered.'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push({
          id,
          request,
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
      return first ? { id: first.id, request: first.request } : undefined;
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
