import { useCallback, useMemo, useState, type Dispatch, type MutableRefObject } from 'react';
import { pickSession, resumeSession } from './app-hooks.js';
import type { PendingApproval } from './approval-queue.js';
import type { KeyPress } from './edit-line.js';
import { diffOnDisk } from './file-change-diff.js';
import type { InteractiveHost } from './interactive-host.js';
import { allSlashCommands } from './custom-command-help.js';
import type { TranscriptAction } from './transcript-state.js';
import type { Picker } from './use-commands.js';
import { useLatest } from './use-latest.js';

/**
 * Shift+Tab: asks the host for the next permission mode and renders the status line again (it
 * reads the mode from the host). A host that cannot change modes says so in the hint.
 */
function useModeCycle(host: InteractiveHost, setHint: (hint: string | undefined) => void): () => void {
  const [, setShown] = useState(() => host.status().mode);
  return useCallback(() => {
    if (!host.cyclePermissionMode) return setHint('the permission mode cannot be changed here');
    setShown(host.cyclePermissionMode());
  }, [host, setHint]);
}

/** The tool's one-line description of an input, or undefined when it cannot describe it. */
function describeEdited(approval: PendingApproval, input: unknown): string | undefined {
  try {
    return approval.request.tool.describeInput(input as never);
  } catch {
    return undefined;
  }
}

/**
 * After the person edited a call's input in the dialog: its row shows the edited input's summary
 * and, for Edit and Write, the diff of the edited change (computed now, before the call runs).
 */
function useEditedInput(
  dispatch: Dispatch<TranscriptAction>,
  cwd: string,
  diffed: MutableRefObject<Set<string>>,
): (approval: PendingApproval, updatedInput: unknown) => void {
  return useCallback(
    (approval, updatedInput) => {
      const { toolUseId } = approval.request;
      const summary = describeEdited(approval, updatedInput) ?? approval.request.summary;
      const diff = diffOnDisk(approval.request.tool.name, updatedInput, cwd);
      if (diff !== undefined) diffed.current.add(toolUseId);
      dispatch({ type: 'call-edited', toolUseId, summary, ...(diff !== undefined ? { diff } : {}) });
    },
    [dispatch, cwd, diffed],
  );
}

/**
 * What the prompt's keys need beyond the line itself: the slash commands offered (built-in and
 * custom) and the one highlighted, Shift+Tab's mode cycle, and the row update after an edited input.
 */
export function useInputExtras(options: {
  readonly host: InteractiveHost;
  readonly dispatch: Dispatch<TranscriptAction>;
  readonly cwd: string;
  readonly diffed: MutableRefObject<Set<string>>;
  readonly setHint: (hint: string | undefined) => void;
}) {
  const [slashSelected, setSlashSelected] = useLatest<string | undefined>(undefined);
  const onInputEdited = useEditedInput(options.dispatch, options.cwd, options.diffed);
  const cycleMode = useModeCycle(options.host, options.setHint);
  // Built-ins first, then the custom commands found at start.
  const { host } = options;
  const slashCommands = useMemo(() => allSlashCommands(host.customCommands?.()), [host]);
  return { slashCommands, slashSelected, setSlashSelected, cycleMode, onInputEdited };
}

/** The session picker's keys: ↑/↓ move, Esc closes, Enter resumes the session chosen (in the background). */
export function pickerKeys(options: {
  readonly host: InteractiveHost;
  readonly setPicker: (picker: Picker | undefined) => void;
  readonly background: (label: string, task: (signal: AbortSignal) => Promise<void>) => void;
  readonly startOver: (message: string) => void;
  readonly dispatch: Dispatch<TranscriptAction>;
}): (list: Picker, key: KeyPress) => void {
  const { host, startOver, dispatch } = options;
  return (list, key) => {
    const chosen = pickSession(list, key, options.setPicker);
    if (chosen)
      options.background('Resuming', (signal) => resumeSession({ host, id: chosen.id, startOver, dispatch, signal }));
  };
}
