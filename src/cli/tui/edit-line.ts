/** The keys a line editor reacts to; Ink's `Key` fits this shape. */
export type KeyPress = {
  readonly return: boolean;
  readonly escape: boolean;
  readonly backspace: boolean;
  readonly delete: boolean;
  readonly leftArrow: boolean;
  readonly rightArrow: boolean;
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly home: boolean;
  readonly end: boolean;
  readonly ctrl: boolean;
  readonly meta: boolean;
  readonly tab: boolean;
};

/** A key press with nothing pressed but a printable key: the base for synthesizing keys. */
export const NO_KEY: KeyPress = Object.freeze({
  return: false,
  escape: false,
  backspace: false,
  delete: false,
  leftArrow: false,
  rightArrow: false,
  upArrow: false,
  downArrow: false,
  home: false,
  end: false,
  ctrl: false,
  meta: false,
  tab: false,
});

/** A one-line text field: its text and the cursor's position in code units. */
export type LineState = { readonly value: string; readonly cursor: number };

/** What a key did: the new state, and whether it submitted or cancelled the line. */
export type LineEdit = { readonly state: LineState; readonly action?: 'submit' | 'cancel' };

/** An empty line. */
export const EMPTY_LINE: LineState = { value: '', cursor: 0 };

/** A line holding `value` with the cursor at its end. */
export function lineOf(value: string): LineState {
  return { value, cursor: value.length };
}

// Pasted text may carry line breaks and controls; a one-line field keeps printable text only.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * Applies one key press to a line: typing and paste insert at the cursor (line breaks become
 * spaces, other controls are dropped), Backspace/Delete, ←/→, Home/End, Ctrl+A/E/U/K/W, Enter
 * submits, Esc cancels. Pure.
 */
export function editLine(state: LineState, input: string, key: KeyPress): LineEdit {
  const { value, cursor } = state;
  if (key.return) return { state, action: 'submit' };
  if (key.escape) return { state, action: 'cancel' };
  if (key.leftArrow) return { state: { value, cursor: Math.max(0, cursor - 1) } };
  if (key.rightArrow) return { state: { value, cursor: Math.min(value.length, cursor + 1) } };
  if (key.home || (key.ctrl && input === 'a')) return { state: { value, cursor: 0 } };
  if (key.end || (key.ctrl && input === 'e')) return { state: { value, cursor: value.length } };
  if (key.ctrl && input === 'u') return { state: { value: value.slice(cursor), cursor: 0 } };
  if (key.ctrl && input === 'k') return { state: { value: value.slice(0, cursor), cursor } };
  if (key.ctrl && input === 'w') {
    const before = value.slice(0, cursor).replace(/\S+\s*$/, '');
    return { state: { value: before + value.slice(cursor), cursor: before.length } };
  }
  // Terminals send DEL (0x7f) for the Backspace key, which Ink may report as either flag.
  if (key.backspace || (key.delete && input === '')) {
    if (cursor === 0) return { state };
    return { state: { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 } };
  }
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return { state };
  const text = input.replace(/\r\n|\r|\n/g, ' ').replace(CONTROLS, '');
  if (text === '') return { state };
  return { state: { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length } };
}
