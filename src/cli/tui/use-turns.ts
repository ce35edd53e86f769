import { useCallback, useRef, type Dispatch } from 'react';
import type { LoopEvent, QueryResult } from '../../session/index.js';
import { describeModelError } from '../describe-model-error.js';
import type { InteractiveHost } from './interactive-host.js';
import type { TranscriptAction } from './transcript-state.js';
import { turnEnd } from './turn-end.js';

/** How long exiting waits for an interrupted turn to hand back its results (ms). */
const SETTLE_WAIT_MS = 3_000;

/** A turn or a background command in progress, which Esc interrupts. */
export type RunningWork = { readonly controller: AbortController; readonly done: Promise<void> };

type Notice = (text: string, tone?: 'info' | 'warning' | 'error') => void;

/** Where a turn's events come from when it is not the prompt as typed (`/init`, a custom command). */
export type TurnSource = (signal: AbortSignal) => AsyncGenerator<LoopEvent, QueryResult>;

/** An error of a turn in words for people: a failed model request names what to fix (see describeModelError). */
function describeTurnError(host: InteractiveHost, error: Error): string {
  const context = host.errorContext?.();
  return context ? describeModelError(error, context) : error.message;
}

/**
 * The work the app runs: a model turn (its events go to the transcript, its end is recorded
 * however it ends), a background command (compact, clear, resume) and the shutdown that
 * interrupts what runs, waits a moment for its results and closes the host once.
 */
export function useTurns(options: {
  readonly host: InteractiveHost;
  readonly dispatch: Dispatch<TranscriptAction>;
  readonly onLoopEvent: (event: LoopEvent) => void;
  readonly notice: Notice;
  readonly setHint: (hint: string | undefined) => void;
  readonly setWorking: (label: string | undefined) => void;
  readonly onExit: (code: number) => void;
  readonly exit: () => void;
}) {
  const { host, dispatch, onLoopEvent, notice, setHint, setWorking } = options;
  const turn = useRef<RunningWork | undefined>(undefined);
  const closing = useRef(false);

  const runTurn = useCallback(
    (prompt: string, source?: TurnSource) => {
      const controller = new AbortController();
      dispatch({ type: 'prompt-submit', text: prompt });
      const done = (async () => {
        let end: TranscriptAction;
        // Each error is shown once, when it happens, in words for people; the turn's end does not repeat it.
        const told = new Set<Error>();
        const describe = (error: Error) => describeTurnError(host, error);
        try {
          const events = source ? source(controller.signal) : host.submit(prompt, controller.signal);
          let next = await events.next();
          while (!next.done) {
            const event = next.value;
            if (event.type === 'error') {
              told.add(event.error);
              notice(describe(event.error), 'error');
            } else onLoopEvent(event);
            next = await events.next();
          }
          end = turnEnd(next.value, { told, describe });
        } catch (error) {
          end = controller.signal.aborted
            ? { type: 'turn-end', outcome: 'interrupted' }
            : {
                type: 'turn-end',
                outcome: 'error',
                message: `The turn failed: ${error instanceof Error ? describe(error) : String(error)}`,
              };
        }
        dispatch(end);
        setHint(undefined);
        turn.current = undefined;
      })();
      turn.current = { controller, done };
    },
    [host, onLoopEvent, dispatch, notice, setHint],
  );

  const background = useCallback(
    (label: string, task: (signal: AbortSignal) => Promise<void>) => {
      const controller = new AbortController();
      setWorking(label);
      const done = task(controller.signal)
        .catch((error: unknown) =>
          notice(`${label} failed: ${error instanceof Error ? error.message : String(error)}`, 'error'),
        )
        .finally(() => {
          setWorking(undefined);
          turn.current = undefined;
        });
      turn.current = { controller, done };
    },
    [notice, setWorking],
  );

  const { onExit, exit } = options;
  const shutdown = useCallback(
    async (code: number) => {
      if (closing.current) return;
      closing.current = true;
      setHint('closing…');
      const running = turn.current;
      running?.controller.abort();
      if (running) await Promise.race([running.done, new Promise((resolve) => setTimeout(resolve, SETTLE_WAIT_MS))]);
      let exitCode = code;
      try {
        await host.close();
      } catch (error) {
        notice(`Closing failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
        exitCode = 1;
      }
      onExit(exitCode);
      exit();
    },
    [host, exit, notice, onExit, setHint],
  );

  return { turn, closing, runTurn, background, shutdown };
}
