import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkExpectation, describeMismatch, type RequestView } from '../providers/scripted/check-expectation.js';
import {
  parseScriptedTurn,
  planTurn,
  type PlannedTurn,
  type ScriptedTurn,
} from '../providers/scripted/scripted-turn.js';

/** A scripted turn to stream, with optional faults on the way. */
export type MockTurnReply = {
  readonly kind: 'turn';
  readonly turn: ScriptedTurn;
  /** Destroys the socket after this many stream events were written (the client sees a cut stream). */
  readonly cutAfterEvents?: number;
  /** Sends the wire format's in-stream error event after this many events, then ends the response. */
  readonly errorAfterEvents?: { readonly events: number; readonly errorType?: string; readonly message?: string };
  /** Wait between stream events, in ms. Default: the server's `chunkDelayMs`. */
  readonly chunkDelayMs?: number;
};

/** An HTTP error answer in the wire format's real error shape. */
export type MockErrorReply = {
  readonly kind: 'error';
  readonly status: number;
  /** The API's error type. Default: the one the real API uses for `status`. */
  readonly errorType?: string;
  readonly message?: string;
  /** Value of the `retry-after` header, in seconds (fractions allowed). */
  readonly retryAfterSeconds?: number;
};

/** One queued answer: a plain scripted turn, a turn with faults, or an HTTP error. */
export type MockReply = ScriptedTurn | MockTurnReply | MockErrorReply;

/** A request the mock server received. */
export type RecordedRequest = {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`undefined` when it was not JSON or bodies are not recorded). */
  readonly body: unknown;
};

/** Options shared by the mock model servers. */
export type MockServerOptions = {
  /** Answers, in order, one per request. More can be added with `enqueue`. */
  readonly replies?: readonly MockReply[];
  /** Wait between stream events, in ms. Default 0. */
  readonly chunkDelayMs?: number;
  /**
   * Keep each request's parsed body in `requests`. Default true; turn off for long benchmark
   * sessions whose growing histories would otherwise all stay in memory (expectations still apply).
   */
  readonly recordBodies?: boolean;
};

/** A running mock model server. */
export interface MockModelServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The base URL to give the wire format's official SDK. */
  readonly baseURL: string;
  /** Every request received, in order, including those answered with errors. */
  readonly requests: readonly RecordedRequest[];
  /** Expectation mismatches met so far (each also answered with a 400). */
  readonly mismatches: readonly string[];
  /** Replies not yet used. */
  readonly pendingReplies: number;
  enqueue(...replies: readonly MockReply[]): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** How one wire format writes answers; the server core is the same for every format. */
export type WireFormat = {
  readonly path: string;
  readonly baseURL: (url: string) => string;
  readonly defaultErrorType: (status: number) => string;
  readonly errorBody: (options: {
    readonly status: number;
    readonly errorType: string;
    readonly message: string;
  }) => unknown;
  /** The SSE frame of an in-stream error. */
  readonly streamErrorFrame: (options: { readonly errorType: string; readonly message: string }) => string;
  readonly view: (body: unknown) => RequestView;
  readonly isStreaming: (body: unknown) => boolean;
  /** Complete SSE frames (`event:`/`data:` lines and the blank line) of a streamed answer. */
  readonly streamFrames: (options: {
    readonly plan: PlannedTurn;
    readonly body: unknown;
    readonly number: number;
  }) => readonly string[];
  readonly jsonBody: (options: {
    readonly plan: PlannedTurn;
    readonly body: unknown;
    readonly number: number;
  }) => unknown;
};

function toReply(reply: MockReply, index: number): MockTurnReply | MockErrorReply {
  if ('kind' in reply)
    return reply.kind === 'turn' ? { ...reply, turn: parseScriptedTurn(reply.turn, `reply ${index + 1}`) } : reply;
  return { kind: 'turn', turn: parseScriptedTurn(reply, `reply ${index + 1}`) };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Starts a mock model server on 127.0.0.1 (a free port) for one wire format. Answers each POST to
 * the format's path with the next queued reply, recording the request first; checks a turn's
 * `expect` against the request and answers a mismatch with a 400 naming every difference.
 */
export async function startMockModelServer(
  format: WireFormat,
  options: MockServerOptions = {},
): Promise<MockModelServer> {
  const queue: (MockTurnReply | MockErrorReply)[] = (options.replies ?? []).map(toReply);
  const requests: RecordedRequest[] = [];
  const mismatches: string[] = [];
  let queued = queue.length;
  let turnsServed = 0;

  function sendError(response: ServerResponse, reply: MockErrorReply): void {
    const errorType = reply.errorType ?? format.defaultErrorType(reply.status);
    const message = reply.message ?? `mock ${errorType} (HTTP ${reply.status})`;
    response.writeHead(reply.status, {
      'content-type': 'application/json',
      'request-id': `req_mock_${requests.length}`,
      'x-request-id': `req_mock_${requests.length}`,
      ...(reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) }),
    });
    response.end(JSON.stringify(format.errorBody({ status: reply.status, errorType, message })));
  }

  async function sendStream(response: ServerResponse, reply: MockTurnReply, frames: readonly string[]): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const delay = reply.chunkDelayMs ?? options.chunkDelayMs ?? 0;
    for (const [index, frame] of frames.entries()) {
      if (response.destroyed) return;
      if (reply.cutAfterEvents !== undefined && index >= reply.cutAfterEvents) {
        response.socket?.destroy();
        return;
      }
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

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    requests.push({
      method: request.method ?? 'GET',
      path,
      headers: flatHeaders(request),
      body: options.recordBodies === false ? undefined : body,
    });
    if (request.method !== 'POST' || path !== format.path) {
      sendError(response, {
        kind: 'error',
        status: 404,
        message: `mock server: no route for ${request.method} ${path}; use POST ${format.path}`,
      });
      return;
    }
    if (body === undefined) {
      sendError(response, { kind: 'error', status: 400, message: 'mock server: the request body is not JSON' });
      return;
    }
    const reply = queue.shift();
    if (reply === undefined) {
      sendError(response, {
        kind: 'error',
        status: 400,
        message: `mock server: no reply queued for request ${requests.length}`,
      });
      return;
    }
    if (reply.kind === 'error') {
      sendError(response, reply);
      return;
    }
    turnsServed += 1;
    if (reply.turn.expect !== undefined) {
      const differences = checkExpectation(reply.turn.expect, format.view(body));
      if (differences.length > 0) {
        const message = describeMismatch({ label: `mock reply ${turnsServed}`, differences });
        mismatches.push(message);
        sendError(response, { kind: 'error', status: 400, message });
        return;
      }
    }
    const plan = planTurn(reply.turn, turnsServed);
    if (format.isStreaming(body)) {
      await sendStream(response, reply, format.streamFrames({ plan, body, number: turnsServed }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(format.jsonBody({ plan, body, number: turnsServed })));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendError(response, { kind: 'error', status: 500, message: `mock server fault: ${String(error)}` });
      } else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: format.baseURL(url),
    requests,
    mismatches,
    get pendingReplies() {
      return queue.length;
    },
    enqueue(...replies) {
      queue.push(...replies.map((reply, index) => toReply(reply, queued + index)));
      queued += replies.length;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
    },
  };
}
