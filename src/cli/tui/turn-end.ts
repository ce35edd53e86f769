import type { QueryResult } from '../../session/index.js';
import type { TranscriptAction } from './transcript-state.js';

/** The transcript's end-of-turn action for how a turn ended. */
export function turnEnd(result: QueryResult): TranscriptAction {
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
    case 'error_max_structured_output_retries':
      return {
        type: 'turn-end',
        outcome: 'error',
        message: result.error ? `The turn failed: ${result.error.message}` : 'The turn failed.',
      };
  }
}
