import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkExpectation, describeMismatch } from '../providers/scripted/check-expectation.js';
import { parseScriptedTurn, planTurn } from '../providers/scripted/scripted-turn.js';
import { sendError, sendStream } from './mock-server-replies.js';
import type * as mock from './mock-server-types.js';

export type * from './mock-server-types.js';

function toReply(reply: mock.MockReply, index: number): mock.MockTurnReply | mock.MockErrorReply {
  if ('kind' in reply)
    return reply.kind === 'turn' ? { ...reply, turn: parseScriptedTurn(reply.turn, `reply ${index + 1}`) } : reply;
  return { kind: 'turn', turn: parseScriptedTurn(reply, `reply ${index + 1}`) };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** What one server holds while it runs. */
type ServerState = {
  readonly format: mock.WireFormat;
  readonly options: mock.MockServerOptions;
  readonly queue: (mock.MockTurnReply | mock.MockErrorReply)[];
  readonly requests: mock.RecordedRequest[];
  readonly mismatches: string[];
  turnsServed: number;
};

function answerError(state: ServerState, response: ServerResponse, reply: Omit<mock.MockErrorReply, 'kind'>): void {
  sendError(response, {
    format: state.format,
    reply: { kind: 'error', ...reply },
    requestNumber: state.requests.length,
  });
}

/** Records one request and answers it with the next queued reply (or an error saying why not). */
async function handle(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { format, options, queue, requests } = state;
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
    answerError(state, response, {
      status: 404,
      message: `mock server: no route for ${request.method} ${path}; use POST ${format.path}`,
    });
    return;
  }
  if (body === undefined) {
    answerError(state, response, { status: 400, message: 'mock server: the request body is not JSON' });
    return;
  }
  const reply = queue.shift();
  if (reply === undefined) {
    answerError(state, response, {
      status: 400,
      message: `mock server: no reply queued for request ${requests.length}`,
    });
    return;
  }
  if (reply.kind === 'error') {
    sendError(response, { format, reply, requestNumber: requests.length });
    return;
  }
  state.turnsServed += 1;
  const number = state.turnsServed;
  if (reply.turn.expect !== undefined) {
    const differences = checkExpectation(reply.turn.expect, format.view(body));
    if (differences.length > 0) {
      const message = describeMismatch({ label: `mock reply ${number}`, differences });
      state.mismatches.push(message);
      answerError(state, response, { status: 400, message });
      return;
    }
  }
  const plan = planTurn(reply.turn, number);
  if (format.isStreaming(body)) {
    const frames = format.streamFrames({ plan, body, number });
    await sendStream(response, { format, reply, frames, chunkDelayMs: options.chunkDelayMs ?? 0 });
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(format.jsonBody({ plan, body, number })));
}

/**
 * Starts a mock model server on 127.0.0.1 (a free port) for one wire format. Answers each POST to
 * the format's path with the next queued reply, recording the request first; checks a turn's
 * `expect` against the request and answers a mismatch with a 400 naming every difference.
 */
export async function startMockModelServer(
  format: mock.WireFormat,
  options: mock.MockServerOptions = {},
): Promise<mock.MockModelServer> {
  const state: ServerState = {
    format,
    options,
    queue: (options.replies ?? []).map(toReply),
    requests: [],
    mismatches: [],
    turnsServed: 0,
  };
  const { queue, requests, mismatches } = state;
  let queued = queue.length;

  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      if (!response.headersSent)
        answerError(state, response, { status: 500, message: `mock server fault: ${String(error)}` });
      else response.destroy();
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
