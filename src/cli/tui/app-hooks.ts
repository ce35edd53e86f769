import { useCallback, useEffect, useMemo, useState, type Dispatch, type MutableRefObject } from 'react';
import type { LoopEvent, SessionSummary } from '../../session/index.js';
import type { ApprovalQueue, PendingApproval } from './approval-queue.js';
import { openDialog, type DialogState } from './dialog-state.js';
import { diffOnDisk } from './file-change-diff.js';
import { openInteraction, type InteractionState } from './interaction-state.js';
import type { Interaction, InteractionAnswer } from './terminal-interaction.js';
import type { KeyPress } from './edit-line.js';
import type { InteractiveHost } from './interactive-host.js';
import { replayHistory } from './replay-history.js';
import type { TranscriptAction } from './transcript-state.js';
import type { Picker } from './use-commands.js';
import { useLatest } from './use-latest.js';
import type { Waiting, WaitingQueue } from './waiting-queue.js';

/**
 * What waits for the person over the prompt: the approval at the head of its queue with its
 * dialog state, and the question or plan at the head of its queue with its state. Each opens
 * fresh when its queue's head changes.
 */
export function useOverlays(approvals: ApprovalQueue, interactions: WaitingQueue<Interaction, InteractionAnswer>) {
  const [pending, setPending] = useLatest<PendingApproval | undefined>(approvals.current());
  const [dialog, setDialog] = useLatest<DialogState | undefined>(undefined);
  const [asked, setAsked] = useLatest<Waiting<Interaction> | undefined>(undefined);
  const [askState, setAskState] = useLatest<InteractionState | undefined>(undefined);

  useEffect(() => {
    const show = () => {
      const current = approvals.current();
      setPending(current);
      setDialog(current ? openDialog({ id: current.id, request: current.request, now: Date.now() }) : undefined);
    };
    show();
    return approvals.subscribe(show);
  }, [approvals, setPending, setDialog]);

  useEffect(() => {
    const show = () => {
      const current = interactions.current();
      setAsked(current);
      setAskState(current ? openInteraction(current.id, Date.now()) : undefined);
    };
    show();
    return interactions.subscribe(show);
  }, [interactions, setAsked, setAskState]);

  return { pending, dialog, setDialog, asked, askState, setAskState };
}

/**
 * Passes the loop's events to the transcript, and captures the change an Edit or Write proposes
 * once its input is complete (before a Write replaces the file), once per call.
 */
export function useLoopEvents(
  dispatch: Dispatch<TranscriptAction>,
  cwd: string,
  diffed: MutableRefObject<Set<string>>,
): (event: LoopEvent) => void {
  return useCallback(
    (event: LoopEvent) => {
      dispatch({ type: 'loop-event', event, now: Date.now() });
      const uses =
        event.type === 'assistant-message'
          ? event.message.content.flatMap((block) =>
              block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
            )
          : event.type === 'tool-call-end' && event.record.toolName === 'Edit'
            ? [{ id: event.record.toolUseId, name: event.record.toolName, input: event.record.input }]
            : [];
      for (const use of uses) {
        if (diffed.current.has(use.id)) continue;
        const diff = diffOnDisk(use.name, use.input, cwd);
        if (diff === undefined) continue;
        diffed.current.add(use.id);
        dispatch({ type: 'call-diff', toolUseId: use.id, diff });
      }
    },
    [dispatch, cwd, diffed],
  );
}

/** The change the call in the permission dialog would make to a file, for the dialog to show. */
export function useDialogDiff(shown: PendingApproval | undefined, cwd: string) {
  return useMemo(
    () => (shown ? diffOnDisk(shown.request.tool.name, shown.request.input, cwd) : undefined),
    [shown, cwd],
  );
}

/** Moves the picker's selection, closes it on Esc, and returns the session chosen with Enter. */
export function pickSession(
  list: Picker,
  key: KeyPress,
  setPicker: (picker: Picker | undefined) => void,
): SessionSummary | undefined {
  const count = list.sessions.length;
  if (key.escape) return void setPicker(undefined);
  if (key.upArrow) return void setPicker({ ...list, selected: (list.selected - 1 + count) % count });
  if (key.downArrow) return void setPicker({ ...list, selected: (list.selected + 1) % count });
  if (!key.return) return undefined;
  setPicker(undefined);
  return list.sessions[list.selected];
}

/** The time, ticking every half second while `running` (elapsed times in the transcript). */
export function useClock(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** Resumes session `id`: a fresh screen, then the earlier conversation replayed into the transcript. */
export async function resumeSession(options: {
  readonly host: InteractiveHost;
  readonly id: string;
  readonly startOver: (message: string) => void;
  readonly dispatch: Dispatch<TranscriptAction>;
  readonly signal: AbortSignal;
}): Promise<void> {
  await options.host.resume(options.id);
  options.startOver(`Resumed session ${options.id}.`);
  for (const action of replayHistory(
    options.host.history?.() ?? [],
    Date.now(),
    options.host.describeInput?.bind(options.host),
  ))
    options.dispatch(action);
}

/** Puts a notice in the transcript. */
export function useNotice(dispatch: Dispatch<TranscriptAction>) {
  return useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => dispatch({ type: 'notice', text, tone }),
    [dispatch],
  );
}
