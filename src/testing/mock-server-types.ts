import type { RequestView } from '../providers/scripted/check-expectation.js';
import type { PlannedTurn, ScriptedTurn } from '../providers/scripted/scripted-turn.js';

/** A scripted turn to stream, with optional faults on the way. */
export type MockTurnReply = {
  readonly kind: 'turn';
  readonly turn: ScriptedTurn;
  /** Destroys the socket after this many stream events were written (the client sees a cut stream). */
  readonly cutAfterEvents?: number;
  /**
   * Writes this many stream events, then nothing more: the response stays open until the client
   * gives up (a stalled stream) or the server closes.
   */
  readonly stallAfterEvents?: number;
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

/** A planned turn to write as an answer to `body`, the server's `number`th turn. */
export type TurnToWrite = { readonly plan: PlannedTurn; readonly body: unknown; readonly number: number };

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
  readonly streamFrames: (options: TurnToWrite) => readonly string[];
  readonly jsonBody: (options: TurnToWrite) => unknown;
};
