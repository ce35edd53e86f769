import type { SubagentOf } from '../loop/subagent-runner.js';
import type { LoopEvent, QueryResult } from '../loop/types.js';
import type { LedgerEntry } from './decision-ledger.js';

/** A turn as it starts: the prompt as the person gave it, before UserPromptSubmit hooks. */
export type ObservedTurn = {
  readonly sessionId: string;
  readonly prompt: string;
  readonly model: string;
  /** The provider's name (`anthropic`, `openai`, `scripted`). */
  readonly provider: string;
};

/**
 * Watches a session from outside without taking part in it (telemetry, a host's own metrics).
 * Every callback is optional and called synchronously; one that throws is reported once through the
 * session's `warn` and never reaches the session, whose turn goes on as if nothing had watched it.
 */
export type SessionObserver = {
  readonly turnStart?: (turn: ObservedTurn) => void;
  /** Each event of the main loop, or with `agent` of a subagent's. */
  readonly event?: (event: LoopEvent, agent?: SubagentOf) => void;
  /** Calls' ledger entries as they are written to the transcript (a batch's together). */
  readonly calls?: (entries: readonly LedgerEntry[]) => void;
  /** The turn ended; `result` is absent when it threw. */
  readonly turnEnd?: (turn: {
    readonly sessionId: string;
    readonly result?: QueryResult;
    readonly error?: unknown;
  }) => void;
};

/** An observer whose every callback is there and guarded. */
export type GuardedObserver = Required<SessionObserver>;

/** `observer` with every callback guarded: a throw is reported once and the callback is not called again. */
export function guardObserver(observer: SessionObserver, warn: (line: string) => void): GuardedObserver {
  const failed = new Set<string>();
  const guard =
    <A extends unknown[]>(name: keyof SessionObserver, call: ((...args: A) => void) | undefined) =>
    (...args: A): void => {
      if (call === undefined || failed.has(name)) return;
      try {
        call(...args);
      } catch (error) {
        failed.add(name);
        warn(`warning: the session observer's ${name} failed and is off for this session: ${String(error)}`);
      }
    };
  return {
    turnStart: guard('turnStart', observer.turnStart),
    event: guard('event', observer.event),
    calls: guard('calls', observer.calls),
    turnEnd: guard('turnEnd', observer.turnEnd),
  };
}

/** `turn` passed through, with the observer told when it starts and how it ended. */
export async function* observeTurn(
  observer: GuardedObserver,
  turn: ObservedTurn,
  run: AsyncGenerator<LoopEvent, QueryResult>,
): AsyncGenerator<LoopEvent, QueryResult> {
  observer.turnStart(turn);
  let result: QueryResult | undefined;
  let error: unknown;
  try {
    result = yield* run;
    return result;
  } catch (thrown) {
    error = thrown;
    throw thrown;
  } finally {
    observer.turnEnd({
      sessionId: turn.sessionId,
      ...(result === undefined ? {} : { result }),
      ...(error === undefined ? {} : { error }),
    });
  }
}
