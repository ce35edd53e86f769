import { describe, expect, it } from 'vitest';
import { createKeyReader, decodeEscape, splitKeys, type KeyEvent } from './read-keys.js';

/** Each event as a short word: the text typed, or the keys set. */
function words(events: readonly KeyEvent[]): string[] {
  return events.map((event) => {
    const flags = Object.entries(event.key)
      .filter(([, on]) => on === true)
      .map(([name]) => name);
    return [event.input === '' ? '' : JSON.stringify(event.input), ...flags].filter((part) => part !== '').join('+');
  });
}

describe('splitKeys', () => {
  it('splits text then Enter written together into the text and Enter', () => {
    expect(words(splitKeys('/mcp\r'))).toEqual(['"/mcp"', 'return']);
  });

  it('splits three Backspaces written together into three key presses', () => {
    expect(words(splitKeys('\x7f\x7f\x7f'))).toEqual(['backspace', 'backspace', 'backspace']);
    expect(words(splitKeys('ab\b'))).toEqual(['"ab"', 'backspace']);
  });

  it('reads Ctrl+letters, Tab and Ctrl+J (a typed newline) between text', () => {
    expect(words(splitKeys('a\x03b\tc\n'))).toEqual(['"a"', '"c"+ctrl', '"b"', 'tab', '"c"', '"\\n"']);
  });

  it('keeps a run with a line break inside it as one paste, its breaks as \\n', () => {
    expect(words(splitKeys('one\r\ntwo\rthree\r'))).toEqual(['"one\\ntwo\\nthree\\n"+paste']);
  });

  it('keeps Enter keys that follow each other as keys', () => {
    expect(words(splitKeys('go\r\r'))).toEqual(['"go"', 'return', 'return']);
  });

  it('drops controls that are no key here', () => {
    expect(words(splitKeys('\x00\x1c'))).toEqual([]);
  });
});

describe('decodeEscape', () => {
  it('reads arrows, Home/End, Delete, Page Up/Down and Shift+Tab in their common forms', () => {
    expect(words(decodeEscape('\x1b[5~'))).toEqual(['pageUp']);
    expect(words(decodeEscape('\x1b[6~'))).toEqual(['pageDown']);
    expect(words(decodeEscape('\x1b[A'))).toEqual(['upArrow']);
    expect(words(decodeEscape('\x1bOB'))).toEqual(['downArrow']);
    expect(words(decodeEscape('\x1b[1;2C'))).toEqual(['rightArrow+shift']);
    expect(words(decodeEscape('\x1b[H'))).toEqual(['home']);
    expect(words(decodeEscape('\x1b[4~'))).toEqual(['end']);
    expect(words(decodeEscape('\x1b[3~'))).toEqual(['delete']);
    expect(words(decodeEscape('\x1b[Z'))).toEqual(['tab+shift']);
  });

  it('reads Shift+Enter (kitty, modifyOtherKeys) and Alt+Enter as a newline, plain CSI-u Enter as Enter', () => {
    expect(words(decodeEscape('\x1b[13;2u'))).toEqual(['"\\n"']);
    expect(words(decodeEscape('\x1b[27;2;13~'))).toEqual(['"\\n"']);
    expect(words(decodeEscape('\x1b\r'))).toEqual(['"\\n"']);
    expect(words(decodeEscape('\x1b[13u'))).toEqual(['return']);
  });

  it('reads Esc, Alt+letter, and drops unknown sequences', () => {
    expect(words(decodeEscape('\x1b'))).toEqual(['escape']);
    expect(words(decodeEscape('\x1bb'))).toEqual(['"b"+meta']);
    expect(words(decodeEscape('\x1b[99x'))).toEqual([]);
  });
});

describe('createKeyReader', () => {
  it('joins a bracketed paste, across events and with escapes inside, into one paste', () => {
    const reader = createKeyReader();
    expect(reader.read('\x1b[200~')).toEqual([]);
    expect(reader.read('line one\r')).toEqual([]);
    expect(reader.read('\x1b[A')).toEqual([]);
    expect(words(reader.read('line two\x1b[201~'))).toEqual(['"line one\\n\\u001b[Aline two"+paste']);
    // After the paste, keys are keys again.
    expect(words(reader.read('\r'))).toEqual(['return']);
  });

  it('reads a paste that starts and ends in one event, and keys after it', () => {
    const reader = createKeyReader();
    expect(words(reader.read('\x1b[200~a\nb'))).toEqual([]);
    expect(words(reader.read('\x1b[201~'))).toEqual(['"a\\nb"+paste']);
    expect(words(reader.read('\x1b[200~x\x1b[201~\r'))).toEqual(['"x"+paste', 'return']);
  });
});
