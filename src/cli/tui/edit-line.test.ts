import { describe, expect, it } from 'vitest';
import { EMPTY_LINE, editLine, lineOf, NO_KEY, type KeyPress, type LineState } from './edit-line.js';

const type = (state: LineState, input: string, key: Partial<KeyPress> = {}) =>
  editLine(state, input, { ...NO_KEY, ...key });

describe('editLine', () => {
  it('inserts typed text at the cursor', () => {
    const state = type(type({ value: 'ac', cursor: 1 }, 'b').state, 'X');
    expect(state.state).toEqual({ value: 'abXc', cursor: 3 });
  });

  it('turns pasted line breaks into spaces and drops other controls', () => {
    expect(type(EMPTY_LINE, 'one\r\ntwo\nthree\x1b\x07').state).toEqual({ value: 'one two three', cursor: 13 });
    expect(type(lineOf('x'), '\x01').state).toEqual(lineOf('x'));
  });

  it('Backspace deletes before the cursor, Delete after it, and nothing past either end', () => {
    expect(type(lineOf('abc'), '', { backspace: true }).state).toEqual(lineOf('ab'));
    expect(type({ value: 'abc', cursor: 1 }, '', { delete: true }).state).toEqual({ value: 'ac', cursor: 1 });
    expect(type(lineOf('abc'), '', { delete: true }).state).toEqual(lineOf('abc'));
    expect(type({ value: 'abc', cursor: 0 }, '', { backspace: true }).state).toEqual({ value: 'abc', cursor: 0 });
  });

  it('moves the cursor with arrows, Home/End and Ctrl+A/E, within the line', () => {
    expect(type(lineOf('abc'), '', { leftArrow: true }).state.cursor).toBe(2);
    expect(type({ value: 'abc', cursor: 0 }, '', { leftArrow: true }).state.cursor).toBe(0);
    expect(type(lineOf('abc'), '', { rightArrow: true }).state.cursor).toBe(3);
    expect(type({ value: 'abc', cursor: 0 }, '', { rightArrow: true }).state.cursor).toBe(1);
    expect(type(lineOf('abc'), '', { home: true }).state.cursor).toBe(0);
    expect(type(lineOf('abc'), 'a', { ctrl: true }).state.cursor).toBe(0);
    expect(type({ value: 'abc', cursor: 0 }, '', { end: true }).state.cursor).toBe(3);
    expect(type({ value: 'abc', cursor: 0 }, 'e', { ctrl: true }).state.cursor).toBe(3);
  });

  it('Ctrl+U clears before the cursor, Ctrl+K after it, Ctrl+W the word before it', () => {
    expect(type({ value: 'hello world', cursor: 6 }, 'u', { ctrl: true }).state).toEqual({ value: 'world', cursor: 0 });
    expect(type({ value: 'hello world', cursor: 5 }, 'k', { ctrl: true }).state).toEqual({ value: 'hello', cursor: 5 });
    expect(type(lineOf('git commit '), 'w', { ctrl: true }).state).toEqual(lineOf('git '));
  });

  it('Enter submits and Esc cancels, keeping the text', () => {
    expect(type(lineOf('go'), '', { return: true })).toEqual({ state: lineOf('go'), action: 'submit' });
    expect(type(lineOf('go'), '', { escape: true, meta: true })).toEqual({ state: lineOf('go'), action: 'cancel' });
  });

  it('ignores other control, meta, tab and vertical keys', () => {
    for (const key of [{ ctrl: true }, { meta: true }, { tab: true }, { upArrow: true }, { downArrow: true }]) {
      expect(type(lineOf('x'), 'z', key).state).toEqual(lineOf('x'));
    }
  });

  it('keeps line breaks in a multi-line field, and a backslash before Enter types one', () => {
    const multi = (state: LineState, input: string, key: Partial<KeyPress> = {}) =>
      editLine(state, input, { ...NO_KEY, ...key }, { multiline: true });
    expect(multi(EMPTY_LINE, 'one\r\ntwo\rthree').state).toEqual(lineOf('one\ntwo\nthree'));
    expect(multi(lineOf('first \\'), '', { return: true })).toEqual({ state: lineOf('first \n') });
    expect(multi(lineOf('done'), '', { return: true }).action).toBe('submit');
    // Home and End stay on the cursor's line.
    expect(multi({ value: 'ab\ncd\nef', cursor: 4 }, '', { home: true }).state.cursor).toBe(3);
    expect(multi({ value: 'ab\ncd\nef', cursor: 4 }, '', { end: true }).state.cursor).toBe(5);
  });

  it('a pasted line break never submits', () => {
    expect(type(lineOf('x'), '\r', { return: true, paste: true }).action).toBeUndefined();
  });
});
