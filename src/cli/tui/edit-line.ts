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
  /** Shift held (Shift+Tab), where the terminal reports it. */
  readonly shift?: boolean;
  /** The text was pasted: it never acts as a key (an option's number, Enter). */
  readonly paste?: boolean;
  /** Page Up / Page Down (the expand view scrolls by pages). */
  readonly pageUp?: boolean;
  readonly pageDown?: boolean;
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

/** A text field: its text (lines separated by \n when multi-line) and the cursor's position in code units. */
export type LineState = { readonly value: string; readonly cursor: number };

/** How a field edits: a multi-line field keeps line breaks, and a `\` before Enter types one. */
export type EditLineOptions = { readonly multiline?: boolean };

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
 * Applies one key press to a field: typing and paste insert at the cursor, Backspace/Delete,
 * ←/→, Home/End, Ctrl+A/E/U/K/W, Enter submits, Esc cancels. A one-line field turns line breaks
 * into spaces; a multi-line one keeps them, and Enter right after a `\` replaces the `\` with a
 * line break instead of submitting (Home/End and Ctrl+A/E then work on the cursor's line). Other
 * controls are dropped. Pure.
 */
export function editLine(state: LineState, input: string, key: KeyPress, options: EditLineOptions = {}): LineEdit {
  const { value, cursor } = state;
  const multiline = options.multiline === true;
  if (key.return && !key.paste) {
    if (multiline && value[cursor - 1] === '\\')
      return { state: { value: `${value.slice(0, cursor - 1)}\n${value.slice(cursor)}`, cursor } };
    return { state, action: 'submit' };
  }
  if (key.escape) return { state, action: 'cancel' };
  if (key.leftArrow) return { state: { value, cursor: Math.max(0, cursor - 1) } };
  if (key.rightArrow) return { state: { value, cursor: Math.min(value.length, cursor + 1) } };
  const lineStart = multiline ? value.lastIndexOf('\n', cursor - 1) + 1 : 0;
  const lineEnd = multiline && value.indexOf('\n', cursor) >= 0 ? value.indexOf('\n', cursor) : value.length;
  if (key.home || (key.ctrl && input === 'a')) return { state: { value, cursor: lineStart } };
  if (key.end || (key.ctrl && input === 'e')) return { state: { value, cursor: lineEnd } };
  if (key.ctrl && input === 'u') return { state: { value: value.slice(cursor), cursor: 0 } };
  if (key.ctrl && input === 'k') return { state: { value: value.slice(0, cursor), cursor } };
  if (key.ctrl && input === 'w') {
    const before = value.slice(0, cursor).replace(/\S+\s*$/, '');
    return { state: { value: before + value.slice(cursor), cursor: before.length } };
  }
  if (key.backspace) {
    if (cursor === 0) return { state };
    return { state: { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 } };
  }
  // The Delete key (ESC[3~): the Backspace key arrives as DEL (0x7f), which the key reader names backspace.
  if (key.delete) return { state: { value: value.slice(0, cursor) + value.slice(cursor + 1), cursor } };
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return { state };
  const breaks = input.replace(/\r\n|\r/g, '\n');
  const text = (multiline ? breaks : breaks.replace(/\n/g, ' ')).replace(CONTROLS, '');
  if (text === '') return { state };
  return { state: { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length } };
}
