import type { ServerResponse } from 'node:http';
import type { MockErrorReply, MockTurnReply, WireFormat } from './mock-server-types.js';

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Answers with an HTTP error in the wire format's real error shape (and `retry-after` when asked). */
export function sendError(
  response: ServerResponse,
  options: { readonly format: WireFormat; readonly reply: MockErrorReply; readonly requestNumber: number },
): void {
  const { format, reply, requestNumber } = options;
  const errorType = reply.errorType ?? format.defaultErrorType(reply.status);
  const message = reply.message ?? `mock ${errorType} (HTTP ${reply.status})`;
  response.writeHead(reply.status, {
    'content-type': 'application/json',
    'request-id': `req_mock_${requestNumber}`,
    'x-request-id': `req_mock_${requestNumber}`,
    ...(reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) }),
  });
  response.end(JSON.stringify(format.errorBody({ status: reply.status, errorType, message })));
}

/**
 * Streams a turn's SSE frames with the reply's faults: a cut socket, an in-stream error event, or a
 * stall (the response stays open, silent, until the client leaves or the server closes).
 */
export async function sendStream(
  response: ServerResponse,
  options: {
    readonly format: WireFormat;
    readonly reply: MockTurnReply;
    readonly frames: readonly string[];
    readonly chunkDelayMs: number;
  },
): Promise<void> {
  const { format, reply, frames } = options;
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const delay = reply.chunkDelayMs ?? options.chunkDelayMs;
  for (const [index, frame] of frames.entries()) {
    if (response.destroyed) return;
    if (reply.cutAfterEvents !== undefined && index >= reply.cutAfterEvents) {
      response.socket?.destroy();
      return;
    }
    if (reply.stallAfterEvents !== undefined && index >= reply.stallAfterEvents) return;
    if (reply.errorAfterEvents !== undefined && index >= reply.errorAfterEvents.events) {
      const errorType = reply.errorAfterEvents.errorType ?? 'overloaded_error';
      response.end(
        format.streamErrorFrame({ errorType, message: reply.errorAfterEvents.message ?? `mock ${errorType}` }),
      );
      return;
    }
    if (delay > 0 && index > 0) await wait(delay);
    // Waiting for each write to flush makes a later cut land exactly after the frames written.
    await new Promise<void>((resolve) => response.write(frame, () => resolve()));
  }
  response.end();
}
