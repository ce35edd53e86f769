import type { CallPhase } from './transcript-state.js';

/** How each phase of a call shows: its mark, its word and its colour (rows, batches, the expand view). */
export const CALL_PHASES: Readonly<
  Record<CallPhase, { readonly mark: string; readonly label: string; readonly color: string }>
> = {
  queued: { mark: '○', label: 'queued', color: 'gray' },
  'awaiting-approval': { mark: '?', label: 'waiting for approval', color: 'yellow' },
  running: { mark: '◐', label: 'running', color: 'cyan' },
  done: { mark: '✔', label: 'done', color: 'green' },
  failed: { mark: '✘', label: 'failed', color: 'red' },
  denied: { mark: '⊘', label: 'denied', color: 'red' },
  cancelled: { mark: '⊘', label: 'cancelled', color: 'gray' },
  interrupted: { mark: '■', label: 'interrupted', color: 'yellow' },
};
