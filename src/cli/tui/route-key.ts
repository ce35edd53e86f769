import type { Dispatch } from 'react';
import type { ApprovalQueue, PendingApproval } from './approval-queue.js';
import { stepDialog, type DialogState } from './dialog-state.js';
import type { KeyPress } from './edit-line.js';
import { editPrompt, interruptOrClear, type PromptRoutes } from './edit-prompt.js';
import { stepInteraction, type InteractionState } from './interaction-state.js';
import { routePagerKey, type PagerRoutes } from './pager-keys.js';
import type { Interaction, InteractionAnswer } from './terminal-interaction.js';
import type { TranscriptAction } from './transcript-state.js';
import type { Picker } from './use-commands.js';
import type { Waiting, WaitingQueue } from './waiting-queue.js';

/** A second Ctrl+C within this long exits (ms). */
const EXIT_CONFIRM_MS = 2_000;
const EXIT_HINT = 'press Ctrl+C again to exit';

type Ref<T> = { current: T };

/** Everything a key can reach, read at the moment the key arrives. */
export type KeyRoutes = PromptRoutes & {
  readonly closing: Ref<boolean>;
  readonly exitArmedAt: Ref<number | undefined>;
  readonly shutdown: (code: number) => Promise<void>;
  readonly dispatch: Dispatch<TranscriptAction>;
  readonly approvals: ApprovalQueue;
  readonly pending: Ref<PendingApproval | undefined>;
  readonly dialog: Ref<DialogState | undefined>;
  readonly setDialog: (state: DialogState | undefined) => void;
  readonly interactions: WaitingQueue<Interaction, InteractionAnswer>;
  readonly asked: Ref<Waiting<Interaction> | undefined>;
  readonly askState: Ref<InteractionState | undefined>;
  readonly setAskState: (state: InteractionState | undefined) => void;
  readonly picker: Ref<Picker | undefined>;
  readonly onPickerKey: (picker: Picker, key: KeyPress) => void;
  /** The person edited a call's input in the dialog: its row shows the edited input. */
  readonly onInputEdited: (approval: PendingApproval, updatedInput: unknown) => void;
} & PagerRoutes;

/**
 * Routes one key (or paste) to what has it: Ctrl+C first (it interrupts a running turn, clears
 * an idle prompt's text, and otherwise asks for a second press to exit), then the expand view
 * (ctrl+o), the permission dialog, the question or plan, the session picker, and last the prompt line.
 */
export function routeKey(routes: KeyRoutes, input: string, key: KeyPress): void {
  if (routes.closing.current) return;
  if (key.ctrl && input === 'c' && !key.paste) {
    if (interruptOrClear(routes)) return;
    return armExit(routes);
  }
  if (routePagerKey(routes, input, key)) return;
  if (answerDialog(routes, input, key)) return;
  if (answerQuestion(routes, input, key)) return;
  const list = routes.picker.current;
  if (list) return routes.onPickerKey(list, key);
  editPrompt(routes, input, key);
}

function armExit(routes: KeyRoutes): void {
  const armed = routes.exitArmedAt.current;
  if (armed !== undefined && Date.now() - armed < EXIT_CONFIRM_MS) return void routes.shutdown(0);
  routes.exitArmedAt.current = Date.now();
  routes.setHint(EXIT_HINT);
  setTimeout(() => routes.setHint((current) => (current === EXIT_HINT ? undefined : current)), EXIT_CONFIRM_MS);
}

function answerDialog(routes: KeyRoutes, input: string, key: KeyPress): boolean {
  const open = routes.pending.current;
  const state = routes.dialog.current;
  if (!open || !state || state.id !== open.id) return false;
  // A chunk of several characters is a paste or keys typed ahead: it never picks an option
  // (the edit and message lines take pastes).
  if (state.mode === 'choose' && (key.paste || [...input].length > 1)) return true;
  const step = stepDialog(state, {
    input,
    key,
    now: Date.now(),
    callInput: open.request.input,
    toolName: open.request.tool.name,
  });
  routes.setDialog(step.state);
  if (step.response) {
    if (step.response.behavior === 'allow' && step.response.updatedInput !== undefined)
      routes.onInputEdited(open, step.response.updatedInput);
    routes.dispatch({
      type: 'approval-answer',
      toolUseId: open.request.toolUseId,
      behavior: step.response.behavior,
      now: Date.now(),
    });
    routes.approvals.answer(open.id, step.response);
  }
  return true;
}

function answerQuestion(routes: KeyRoutes, input: string, key: KeyPress): boolean {
  const question = routes.asked.current;
  const state = routes.askState.current;
  if (!question || !state || state.id !== question.id) return false;
  if (state.mode === 'choose' && (key.paste || [...input].length > 1)) return true;
  const step = stepInteraction(state, { input, key, now: Date.now(), interaction: question.item });
  routes.setAskState(step.state);
  if (step.answer) routes.interactions.answer(question.id, step.answer);
  return true;
}
