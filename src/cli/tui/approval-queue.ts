import type { ApprovalRequest, ApprovalResponse, Approver } from '../../contract/gates.js';
import { createWaitingQueue } from './waiting-queue.js';

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

/** Creates an empty {@link ApprovalQueue}. */
export function createApprovalQueue(): ApprovalQueue {
  const queue = createWaitingQueue<ApprovalRequest, ApprovalResponse>({
    abortMessage: 'The turn was interrupted before the person answered.',
  });
  return {
    request: (request, signal) => queue.enqueue(request, signal),
    current() {
      const first = queue.current();
      return first ? { id: first.id, request: first.item } : undefined;
    },
    answer: (id, response) => queue.answer(id, response),
    subscribe: (listener) => queue.subscribe(listener),
  };
}
