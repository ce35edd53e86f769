import { describeRetry } from '../describe-retry.js';
import type { LoopEvent } from '../../session/index.js';
import type { DiffLine } from './file-change-diff.js';
import { finishCall } from './finish-call.js';
import type { CallResult } from './result-text.js';

export { describeOutcome } from './finish-call.js';

/** Where one tool call is, as people see it. */
export type CallPhase =
  'queued' | 'awaiting-approval' | 'running' | 'done' | 'failed' | 'denied' | 'cancelled' | 'interrupted';

/** One tool call's row. */
export type CallView = {
  readonly toolUseId: string;
  readonly toolName: string;
  /** The tool's human-facing one-line summary of its input. */
  readonly summary: string;
  /** The model request (within the session view) whose answer proposed the call. */
  readonly turn: number;
  /** Calls of the same turn with the same batch number ran in parallel. */
  readonly batch?: number;
  readonly phase: CallPhase;
  /** When it started running (after any approval wait), in ms since the epoch. */
  readonly startedAt?: number;
  /** How long it ran, approval wait excluded. */
  readonly durationMs?: number;
  /** The last lines of live output (Bash). */
  readonly outputTail: readonly string[];
  /** Why it failed or was refused, for people. */
  readonly detail?: string;
  /** Edit and Write: what the call changes (captured before it ran). */
  readonly diff?: readonly DiffLine[];
  /** Its result as people read it, once it has one. */
  readonly result?: CallResult;
};

/** One item of the conversation as shown. */
export type TranscriptEntry =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly toolUseId: string }
  | { readonly kind: 'notice'; readonly text: string; readonly tone: NoticeTone };

export type NoticeTone = 'info' | 'warning' | 'error';

/** Everything the conversation view shows. Plain data: the UI's reducer state. */
export type TranscriptState = {
  readonly entries: readonly TranscriptEntry[];
  readonly calls: ReadonlyMap<string, CallView>;
  /** Model requests seen so far; tool rows remember theirs for grouping. */
  readonly turn: number;
  /** Whether the next text delta continues the last text entry. */
  readonly textOpen: boolean;
  readonly running: boolean;
  /** How many entries belong to finished turns (a renderer may print them once). */
  readonly settledCount: number;
};

/** Inputs to {@link reduceTranscript}. `now` is in ms since the epoch. */
export type TranscriptAction =
  | { readonly type: 'prompt-submit'; readonly text: string }
  | { readonly type: 'loop-event'; readonly event: LoopEvent; readonly now: number }
  | { readonly type: 'call-diff'; readonly toolUseId: string; readonly diff: readonly DiffLine[] }
  /** The person edited the call's input in the dialog: its row shows the edited input's summary and diff. */
  | {
      readonly type: 'call-edited';
      readonly toolUseId: string;
      readonly summary: string;
      readonly diff?: readonly DiffLine[];
    }
  /** The person answered the call's dialog; an allowed call runs from `now`. */
  | {
      readonly type: 'approval-answer';
      readonly toolUseId: string;
      readonly behavior: 'allow' | 'deny' | 'abort';
      readonly now: number;
    }
  | {
      readonly type: 'turn-end';
      readonly outcome: 'success' | 'interrupted' | 'error';
      readonly message?: string;
      /** The error was shown when it happened: the end adds no notice. */
      readonly told?: boolean;
    }
  | { readonly type: 'notice'; readonly text: string; readonly tone: NoticeTone }
  | { readonly type: 'clear' };

/** Lines of live output kept per call. */
export const OUTPUT_TAIL_LINES = 5;

/** An empty conversation. */
export const EMPTY_TRANSCRIPT: TranscriptState = {
  entries: [],
  calls: new Map(),
  turn: 0,
  textOpen: false,
  running: false,
  settledCount: 0,
};

const TERMINAL: ReadonlySet<CallPhase> = new Set(['done', 'failed', 'denied', 'cancelled', 'interrupted']);

/** True when the call has its result. */
export function isSettled(phase: CallPhase): boolean {
  return TERMINAL.has(phase);
}

/**
 * The UI's state machine: turns prompts, loop events and turn ends into the rows people see.
 * Pure; events for calls it has not seen create their row, so no event is lost to ordering.
 */
export function reduceTranscript(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case 'prompt-submit':
      return {
        ...state,
        entries: [...state.entries, { kind: 'prompt', text: action.text }],
        running: true,
        textOpen: false,
      };
    case 'loop-event':
      return reduceLoopEvent(state, action.event, action.now);
    case 'call-diff':
      return updateCall(state, action.toolUseId, (call) => ({ ...call, diff: action.diff }));
    case 'call-edited': {
      // An old diff would show a change the call no longer makes: it goes when the edit brings none.
      const { diff } = action;
      return updateCall(state, action.toolUseId, ({ diff: _old, ...call }) => ({
        ...call,
        summary: action.summary,
        ...(diff ? { diff } : {}),
      }));
    }
    case 'approval-answer':
      return updateCall(state, action.toolUseId, (call) =>
        action.behavior === 'allow' && call.phase === 'awaiting-approval'
          ? { ...call, phase: 'running', startedAt: action.now }
          : call,
      );
    case 'turn-end':
      return endTurn(state, action);
    case 'notice': {
      const entries = [...state.entries, { kind: 'notice' as const, text: action.text, tone: action.tone }];
      // Between turns a notice is final at once; during a turn it settles with the turn.
      return { ...state, entries, textOpen: false, settledCount: state.running ? state.settledCount : entries.length };
    }
    case 'clear':
      return EMPTY_TRANSCRIPT;
  }
}

function reduceLoopEvent(state: TranscriptState, event: LoopEvent, now: number): TranscriptState {
  switch (event.type) {
    case 'request-start':
      // The loop asks the model again only once every call of the last answer has its result,
      // so what came before is final and can leave the redrawn part of the screen.
      return { ...state, turn: state.turn + 1, textOpen: false, settledCount: settledPrefix(state) };
    case 'text-delta':
      return appendText(state, event.text);
    case 'tool-use-start':
    case 'tool-input-delta':
      // A call is shown once its input is complete and it is queued.
      return state;
    case 'tool-call-queue':
      return withCall(state, event.toolUseId, event.toolName, (call) => ({ ...call, summary: event.summary }));
    case 'permission-request':
      return withCall(state, event.toolUseId, event.toolName, (call) => ({
        ...call,
        summary: call.summary || event.summary,
        phase: 'awaiting-approval',
      }));
    case 'permission-decision':
      // An ask is shown by its permission-request; allow and deny show through start and end.
      return state;
    case 'tool-call-start':
      return withCall(state, event.toolUseId, event.toolName, (call) => ({
        ...call,
        batch: event.batch,
        phase: 'running',
        startedAt: now,
      }));
    case 'tool-call-progress': {
      const message = event.progress.message;
      if (message === undefined) return state;
      const lines = message.split('\n').filter((line) => line.trim() !== '');
      return updateCall(state, event.toolUseId, (call) => ({
        ...call,
        phase: call.phase === 'queued' || call.phase === 'awaiting-approval' ? 'running' : call.phase,
        outputTail: lines.slice(-OUTPUT_TAIL_LINES),
      }));
    }
    case 'tool-call-end': {
      const { record, durationMs } = event;
      return withCall(state, record.toolUseId, record.toolName, (call) =>
        finishCall(call, { record, durationMs, now }),
      );
    }
    case 'tool-call-duplicate':
      return {
        ...state,
        entries: [
          ...state.entries,
          {
            kind: 'notice',
            text: `The model repeated the call id ${event.toolUseId}; the repeat was not run.`,
            tone: 'warning',
          },
        ],
      };
    case 'compact':
      return {
        ...state,
        entries: [
          ...state.entries,
          { kind: 'notice', text: `Compacted ${event.removedMessages} older messages into a summary.`, tone: 'info' },
        ],
        textOpen: false,
      };
    case 'notice':
      return {
        ...state,
        entries: [...state.entries, { kind: 'notice', text: event.message, tone: 'info' }],
        textOpen: false,
      };
    case 'retry':
      return {
        ...state,
        entries: [...state.entries, { kind: 'notice', text: describeRetry(event), tone: 'warning' }],
        textOpen: false,
      };
    case 'error':
      return {
        ...state,
        entries: [...state.entries, { kind: 'notice', text: event.error.message, tone: 'error' }],
        textOpen: false,
      };
    case 'assistant-message':
    case 'tool-results':
      return state;
  }
}

/** How many leading entries are final: up to the first call still without its result. */
function settledPrefix(state: TranscriptState): number {
  const open = state.entries.findIndex((entry) => {
    if (entry.kind !== 'call') return false;
    const call = state.calls.get(entry.toolUseId);
    return call !== undefined && !isSettled(call.phase);
  });
  return open < 0 ? state.entries.length : Math.max(state.settledCount, open);
}

function appendText(state: TranscriptState, text: string): TranscriptState {
  const last = state.entries.at(-1);
  if (state.textOpen && last?.kind === 'text') {
    return { ...state, entries: [...state.entries.slice(0, -1), { kind: 'text', text: last.text + text }] };
  }
  return { ...state, entries: [...state.entries, { kind: 'text', text }], textOpen: true };
}

function withCall(
  state: TranscriptState,
  toolUseId: string,
  toolName: string,
  change: (call: CallView) => CallView,
): TranscriptState {
  const existing = state.calls.get(toolUseId);
  if (existing) return updateCall(state, toolUseId, change);
  const created: CallView = { toolUseId, toolName, summary: '', turn: state.turn, phase: 'queued', outputTail: [] };
  const calls = new Map(state.calls);
  calls.set(toolUseId, change(created));
  return { ...state, calls, entries: [...state.entries, { kind: 'call', toolUseId }], textOpen: false };
}

function updateCall(state: TranscriptState, toolUseId: string, change: (call: CallView) => CallView): TranscriptState {
  const existing = state.calls.get(toolUseId);
  if (!existing) return state;
  const calls = new Map(state.calls);
  calls.set(toolUseId, change(existing));
  return { ...state, calls };
}

function endTurn(state: TranscriptState, action: Extract<TranscriptAction, { type: 'turn-end' }>): TranscriptState {
  // The plane answers every call; a row still open here missed its end event, so it shows the turn's fate.
  const calls = new Map(state.calls);
  for (const [id, call] of calls) {
    if (isSettled(call.phase)) continue;
    calls.set(id, {
      ...call,
      phase: action.outcome === 'interrupted' ? 'interrupted' : 'failed',
      detail: action.outcome === 'interrupted' ? 'interrupted' : 'ended without a result',
    });
  }
  const closing: TranscriptEntry[] = [];
  if (action.outcome === 'interrupted')
    closing.push({ kind: 'notice', text: action.message ?? 'Interrupted.', tone: 'warning' });
  if (action.outcome === 'error' && action.told !== true)
    closing.push({ kind: 'notice', text: action.message ?? 'The turn failed.', tone: 'error' });
  const entries = [...state.entries, ...closing];
  return { ...state, calls, entries, running: false, textOpen: false, settledCount: entries.length };
}

/** A display block: one call, or the calls of one parallel batch. */
export type DisplayBlock =
  | { readonly kind: 'entry'; readonly entry: TranscriptEntry }
  | { readonly kind: 'batch'; readonly batch: number; readonly toolUseIds: readonly string[] };

/**
 * Groups consecutive call entries that ran in the same parallel batch (same turn and batch
 * number, two or more calls) so the view can draw them together.
 */
export function groupEntries(
  entries: readonly TranscriptEntry[],
  calls: ReadonlyMap<string, CallView>,
): readonly DisplayBlock[] {
  const blocks: DisplayBlock[] = [];
  let group: { turn: number; batch: number; ids: string[] } | undefined;
  const flush = () => {
    if (!group) return;
    if (group.ids.length > 1) blocks.push({ kind: 'batch', batch: group.batch, toolUseIds: group.ids });
    else for (const id of group.ids) blocks.push({ kind: 'entry', entry: { kind: 'call', toolUseId: id } });
    group = undefined;
  };
  for (const entry of entries) {
    const call = entry.kind === 'call' ? calls.get(entry.toolUseId) : undefined;
    if (call?.batch === undefined) {
      flush();
      blocks.push({ kind: 'entry', entry });
      continue;
    }
    if (group && group.turn === call.turn && group.batch === call.batch) {
      group.ids.push(call.toolUseId);
      continue;
    }
    flush();
    group = { turn: call.turn, batch: call.batch, ids: [call.toolUseId] };
  }
  flush();
  return blocks;
}
