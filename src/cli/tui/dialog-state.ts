import type { ApprovalRequest, ApprovalResponse } from '../../contract/gates.js';
import { approvalOptions, type ApprovalOption } from './approval-options.js';
import { EMPTY_LINE, editLine, lineOf, type KeyPress, type LineState } from './edit-line.js';

/** Keys are ignored for this long after the dialog appears, so typing meant for the prompt cannot answer it (ms). */
export const DIALOG_GUARD_MS = 250;

/** The permission dialog's state: which option is highlighted, and the open text field if any. */
export type DialogState = {
  readonly id: number;
  readonly openedAt: number;
  readonly options: readonly ApprovalOption[];
  /** Nothing is highlighted when the dialog opens, so Enter alone does nothing. */
  readonly selected: number | undefined;
  readonly mode: 'choose' | 'edit' | 'deny-message';
  readonly line: LineState;
  /** Why the last key did nothing (bad JSON, no option chosen). */
  readonly error?: string;
};

/** What a key press did to the dialog; `response` is the answer for the plane, when there is one. */
export type DialogStep = { readonly state: DialogState; readonly response?: ApprovalResponse };

/** A freshly opened dialog for request `id`. */
export function openDialog(options: {
  readonly id: number;
  readonly request: Pick<ApprovalRequest, 'suggestions'>;
  readonly now: number;
}): DialogState {
  return {
    id: options.id,
    openedAt: options.now,
    options: approvalOptions(options.request),
    selected: undefined,
    mode: 'choose',
    line: EMPTY_LINE,
  };
}

/**
 * Applies one key press to the dialog. Keys in the first {@link DIALOG_GUARD_MS} are ignored.
 * ↑/↓ or an option's number highlight it; Enter confirms the highlighted option (with none
 * highlighted it only says how to choose); Esc denies. "Edit" opens a JSON line prefilled with
 * the input; "deny" opens a line for the message to the model; Esc there goes back. Pure.
 */
export function stepDialog(
  state: DialogState,
  press: { readonly input: string; readonly key: KeyPress; readonly now: number; readonly callInput: unknown },
): DialogStep {
  if (press.now - state.openedAt < DIALOG_GUARD_MS) return { state };
  const { input, key } = press;
  if (state.mode === 'edit' || state.mode === 'deny-message') return stepLine(state, input, key);

  if (key.escape) return { state, response: { behavior: 'deny' } };
  const count = state.options.length;
  if (key.upArrow)
    return { state: choose(state, state.selected === undefined ? count - 1 : (state.selected - 1 + count) % count) };
  if (key.downArrow || key.tab)
    return { state: choose(state, state.selected === undefined ? 0 : (state.selected + 1) % count) };
  const byKey = state.options.findIndex((option) => option.key === input);
  if (byKey >= 0) return { state: choose(state, byKey) };
  if (!key.return) return { state };

  const option = state.selected === undefined ? undefined : state.options[state.selected];
  if (option === undefined)
    return { state: { ...state, error: 'Choose an option first: ↑/↓ or its number, then Enter.' } };
  switch (option.kind) {
    case 'allow-once':
      return { state, response: { behavior: 'allow' } };
    case 'allow-always':
      return { state, response: { behavior: 'allow', remember: option.suggestion } };
    case 'edit':
      return {
        state: { ...state, mode: 'edit', line: lineOf(JSON.stringify(press.callInput) ?? 'null'), error: undefined },
      };
    case 'deny':
      return { state: { ...state, mode: 'deny-message', line: EMPTY_LINE, error: undefined } };
    case 'abort':
      return { state, response: { behavior: 'abort' } };
  }
}

function choose(state: DialogState, selected: number): DialogState {
  const { error: _error, ...rest } = state;
  return { ...rest, selected };
}

function stepLine(state: DialogState, input: string, key: KeyPress): DialogStep {
  const edit = editLine(state.line, input, key);
  if (edit.action === 'cancel') return { state: { ...state, mode: 'choose', line: EMPTY_LINE, error: undefined } };
  if (edit.action !== 'submit') return { state: { ...state, line: edit.state } };
  if (state.mode === 'deny-message') {
    const feedback = edit.state.value.trim();
    return { state, response: feedback === '' ? { behavior: 'deny' } : { behavior: 'deny', feedback } };
  }
  let updatedInput: unknown;
  try {
    updatedInput = JSON.parse(edit.state.value);
  } catch (error) {
    return {
      state: {
        ...state,
        error: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or press Esc.`,
      },
    };
  }
  return { state, response: { behavior: 'allow', updatedInput } };
}
