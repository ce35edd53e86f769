import { randomUUID } from 'node:crypto';

/** A control request's inner part: its `subtype` and the fields of that subtype. */
export type ControlRequestBody = { readonly subtype: string; readonly [field: string]: unknown };

/** A `control_response` as the host sends it. */
export type ControlResponseMessage = {
  readonly type: 'control_response';
  readonly response: {
    readonly subtype: 'success' | 'error';
    readonly request_id: string;
    readonly response?: Record<string, unknown>;
    readonly error?: string;
  };
};

/** The host answered a control request with an error, or the channel closed before it answered. */
export class ControlRequestError extends Error {
  override readonly name = 'ControlRequestError';
}

type Pending = {
  readonly resolve: (value: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
};

/**
 * The requests toolplane sends to the host over stream-json (can_use_tool, hook_callback,
 * mcp_message), each with an id of its own, answered by the host's `control_response`. A request
 * whose signal aborts is withdrawn with `control_cancel_request` and rejected at once; a response
 * that arrives later is ignored, as is one for an id never sent.
 */
export class ControlChannel {
  readonly #write: (message: unknown) => void;
  readonly #pending = new Map<string, Pending>();
  #closed: Error | undefined;

  constructor(write: (message: unknown) => void) {
    this.#write = write;
  }

  /** Sends `body` as a control request; resolves with the success payload (`{}` when there is none). */
  request(body: ControlRequestBody, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const requestId = `toolplane-${randomUUID()}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(requestId)) return;
        this.#write({ type: 'control_cancel_request', request_id: requestId });
        reject(abortError(signal));
      };
      const settle = <T>(next: (value: T) => void) => {
        return (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          next(value);
        };
      };
      this.#pending.set(requestId, { resolve: settle(resolve), reject: settle(reject) });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#write({ type: 'control_request', request_id: requestId, request: body });
    });
  }

  /** Hands a `control_response` to the request it answers; false when no request waits for it. */
  deliver(message: ControlResponseMessage): boolean {
    const { response } = message;
    const pending = this.#pending.get(response.request_id);
    if (!pending) return false;
    this.#pending.delete(response.request_id);
    if (response.subtype === 'success') pending.resolve(response.response ?? {});
    else pending.reject(new ControlRequestError(response.error ?? 'the host answered with an error'));
    return true;
  }

  /** Requests still waiting for an answer. */
  pendingCount(): number {
    return this.#pending.size;
  }

  /** Rejects every waiting request and every later one: the host's input ended. */
  close(reason: string): void {
    this.#closed ??= new ControlRequestError(reason);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of pending) entry.reject(this.#closed);
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new ControlRequestError('the request was withdrawn');
}
