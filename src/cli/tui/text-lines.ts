import type { LineState } from './edit-line.js';

/** A field's text as lines, with the cursor's line and column. */
export type CursorLines = { readonly lines: readonly string[]; readonly row: number; readonly column: number };

/** Splits a field at its line breaks and finds the cursor in it. */
export function cursorLines(state: LineState): CursorLines {
  const lines = state.value.split('\n');
  const before = state.value.slice(0, state.cursor).split('\n');
  return { lines, row: before.length - 1, column: (before[before.length - 1] ?? '').length };
}

/**
 * The field with its cursor moved one line up or down, to the same column or the line's end;
 * undefined when there is no line that way (↑/↓ then recall earlier prompts).
 */
export function moveVertically(state: LineState, direction: 'up' | 'down'): LineState | undefined {
  const { lines, row, column } = cursorLines(state);
  const target = direction === 'up' ? row - 1 : row + 1;
  const line = lines[target];
  if (line === undefined) return undefined;
  const start = lines.slice(0, target).reduce((sum, text) => sum + text.length + 1, 0);
  return { value: state.value, cursor: start + Math.min(column, line.length) };
}
