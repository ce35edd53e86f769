import type { QueryResult } from '../../session/index.js';
import type { TranscriptAction } from './transcript-state.js';

/** What the turn already showed: its errors as told (the end does not repeat them), and how to word one. */
export type TurnEndOptions = {
  readonly told?: ReadonlySet<Error>;
  readonly describe?: (error: Error) => string;
};

/** The transcript's end-of-turn action for how a turn ended. */
export function turnEnd(result: QueryResult, options: TurnEndOptions = {}): TranscriptAction {
  switch (result.status) {
    case 'success':
      return { type: 'turn-end', outcome: 'success' };
    case 'aborted':
      return {
        type: 'turn-end',
        outcome: 'interrupted',
        message: 'Interrupted: every pending call was answered as interrupted.',
      };
    case 'error_max_turns':
      return {
        type: 'turn-end',
        outcome: 'error',
        message: `Stopped after ${result.turns} model requests (the turn limit).`,
      };
    case 'error_max_budget_usd':
      return {
        type: 'turn-end',
        outcome: 'error',
        message: `Stopped before the next model request: the session has spent its --max-budget-usd (US$${result.costUsd.toFixed(4)} of it in this turn).`,
      };
    case 'error_during_execution':
    case 'error_max_structured_output_retries': {
      const { error } = result;
      if (error !== undefined && options.told?.has(error)) return { type: 'turn-end', outcome: 'error', told: true };
      const words = error && (options.describe ? options.describe(error) : error.message);
      return { type: 'turn-end', outcome: 'error', message: words ? `The turn failed: ${words}` : 'The turn failed.' };
    }
  }
}
