import type { ApprovalRequest, ApprovalResponse } from '../../contract/gates.js';
import { approvalOptions, type ApprovalOption } from './approval-options.js';
import { EMPTY_LINE, editLine, lineOf, type KeyPress, type LineState } from './edit-line.js';
import { moveVertically } from './text-lines.js';

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
  /** What the edit field holds: a Bash call's command as text, or any other input as JSON. */
  readonly editing?: 'command' | 'json';
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
 * highlighted it only says how to choose); Esc denies. "Edit" opens a multi-line field with a
 * Bash call's command as text, or any other input as indented JSON; "deny" opens a line for the
 * message to the model; Esc there goes back. Pure.
 */
export function stepDialog(
  state: DialogState,
  press: {
    readonly input: string;
    readonly key: KeyPress;
    readonly now: number;
    readonly callInput: unknown;
    /** The tool's name: a Bash call's command is edited as text. */
    readonly toolName?: string;
  },
): DialogStep {
  if (press.now - state.openedAt < DIALOG_GUARD_MS) return { state };
  const { input, key } = press;
  if (state.mode === 'edit' || state.mode === 'deny-message') return stepLine(state, press);

  if (key.escape) return { state, response: { behavior: 'deny' } };
  const count = state.options.length;
  // Shift+Tab goes back up, as Tab goes down.
  if (key.upArrow || (key.tab && key.shift === true))
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
      return { state: { ...state, mode: 'edit', ...editField(press.callInput, press.toolName), error: undefined } };
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

/** The command of a call, when it is a Bash call whose input has one. */
function commandOf(callInput: unknown, toolName: string | undefined): string | undefined {
  if (toolName !== 'Bash' || typeof callInput !== 'object' || callInput === null) return undefined;
  const command = (callInput as Record<string, unknown>)['command'];
  return typeof command === 'string' ? command : undefined;
}

function editField(callInput: unknown, toolName: string | undefined): Pick<DialogState, 'line' | 'editing'> {
  const command = commandOf(callInput, toolName);
  if (command !== undefined) return { line: lineOf(command), editing: 'command' };
  return { line: lineOf(JSON.stringify(callInput, null, 2) ?? 'null'), editing: 'json' };
}

function stepLine(
  state: DialogState,
  press: { readonly input: string; readonly key: KeyPress; readonly callInput: unknown },
): DialogStep {
  const { input, key } = press;
  const multiline = state.mode === 'edit';
  if (multiline && (key.upArrow || key.downArrow)) {
    const moved = moveVertically(state.line, key.upArrow ? 'up' : 'down');
    return { state: moved ? { ...state, line: moved } : state };
  }
  const edit = editLine(state.line, input, key, { multiline });
  if (edit.action === 'cancel') return { state: { ...state, mode: 'choose', line: EMPTY_LINE, error: undefined } };
  if (edit.action !== 'submit') return { state: { ...state, line: edit.state } };
  if (state.mode === 'deny-message') {
    const feedback = edit.state.value.trim();
    return { state, response: feedback === '' ? { behavior: 'deny' } : { behavior: 'deny', feedback } };
  }
  if (state.editing === 'command') {
    if (edit.state.value.trim() === '')
      return { state: { ...state, error: 'The command is empty: type one, or press Esc to go back.' } };
    const updatedInput = { ...(press.callInput as Record<string, unknown>), command: edit.state.value };
    return { state, response: { behavior: 'allow', updatedInput } };
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
