import { NO_KEY, type KeyPress } from './edit-line.js';

/** One key press (or one paste) as the UI handles it: the text it types, and the key flags. */
export type KeyEvent = { readonly input: string; readonly key: KeyPress };

/** Turns the terminal's input into key events, one at a time; it remembers an open bracketed paste. */
export type KeyReader = {
  /** Reads one input event as Ink delivers it: a run of plain text, or one escape sequence. */
  read(data: string): readonly KeyEvent[];
};

const ESC = '\x1b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

const key = (flags: Partial<KeyPress>): KeyPress => ({ ...NO_KEY, ...flags });
const typed = (input: string, flags: Partial<KeyPress> = {}): KeyEvent => ({ input, key: key(flags) });
const NEWLINE: KeyEvent = typed('\n');
const ENTER: KeyEvent = typed('', { return: true });

/** A pasted text: its line breaks kept (as \n), never a key. */
function pasted(text: string): KeyEvent {
  return typed(text.replace(/\r\n|\r/g, '\n'), { paste: true });
}

/**
 * Creates a {@link KeyReader}. Text between the bracketed-paste markers (ESC[200~ … ESC[201~)
 * becomes one paste event, escape sequences inside it included, so nothing pasted acts as a key.
 */
export function createKeyReader(): KeyReader {
  let paste: string | undefined;
  return {
    read(data) {
      if (paste !== undefined) {
        const end = data.indexOf(PASTE_END);
        if (end < 0) {
          paste += data;
          return [];
        }
        const text = paste + data.slice(0, end);
        paste = undefined;
        const rest = data.slice(end + PASTE_END.length);
        return [pasted(text), ...(rest === '' ? [] : this.read(rest))];
      }
      if (data.startsWith(PASTE_START)) {
        paste = '';
        const rest = data.slice(PASTE_START.length);
        return rest === '' ? [] : this.read(rest);
      }
      if (data.startsWith(ESC)) return decodeEscape(data);
      return splitKeys(data);
    },
  };
}

/**
 * Splits a run of plain text (no escape sequence) into key presses: Enter (\r), a typed newline
 * (\n, Ctrl+J), Backspace (DEL or BS), Tab, Ctrl+letter, and runs of printable text. A run in
 * which a line break is followed by more text is a paste from a terminal without bracketed paste:
 * it stays one event with its line breaks, so pasting never submits half of it.
 */
export function splitKeys(run: string): readonly KeyEvent[] {
  if (/[\r\n][^\r\n]/.test(run)) return [pasted(run)];
  const events: KeyEvent[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') events.push(typed(text));
    text = '';
  };
  for (const char of run) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code !== 0x7f) {
      text += char;
      continue;
    }
    flush();
    const control = controlKey(char, code);
    if (control) events.push(control);
  }
  flush();
  return events;
}

function controlKey(char: string, code: number): KeyEvent | undefined {
  if (char === '\r') return ENTER;
  if (char === '\n') return NEWLINE;
  if (char === '\x7f' || char === '\b') return typed('', { backspace: true });
  if (char === '\t') return typed('', { tab: true });
  // Ctrl+A … Ctrl+Z arrive as 0x01 … 0x1a; the rest (Ctrl+Space, Ctrl+\ …) do nothing here.
  if (code >= 0x01 && code <= 0x1a) return typed(String.fromCharCode(code + 0x60), { ctrl: true });
  return undefined;
}

const CSI_FINAL: Readonly<Record<string, Partial<KeyPress>>> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
  Z: { tab: true, shift: true },
};

const TILDE_CODES: Readonly<Record<string, Partial<KeyPress>>> = {
  '1': { home: true },
  '7': { home: true },
  '4': { end: true },
  '8': { end: true },
  '3': { delete: true },
  '5': { pageUp: true },
  '6': { pageDown: true },
};

/** xterm's modifier parameter (1 + bits: shift 1, alt 2, ctrl 4) as key flags. */
function modifiers(parameter: string | undefined): { shift: boolean; meta: boolean; ctrl: boolean } {
  const bits = Math.max(0, Number(parameter ?? '1') - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** A key code with modifiers (kitty's CSI u, xterm's modifyOtherKeys): Shift+Enter is a newline. */
function codeKey(code: number, parameter: string | undefined): readonly KeyEvent[] {
  const mods = modifiers(parameter);
  if (code === 13) return [mods.shift || mods.meta || mods.ctrl ? NEWLINE : ENTER];
  if (code === 9) return [typed('', { tab: true, shift: mods.shift })];
  if (code === 27) return [typed('', { escape: true })];
  if (code === 127 || code === 8) return [typed('', { backspace: true })];
  if (code >= 0x20 && code <= 0x10ffff) {
    const char = String.fromCodePoint(code);
    return [typed(char, { ctrl: mods.ctrl, meta: mods.meta })];
  }
  return [];
}

/**
 * Decodes one escape sequence: arrows, Home/End, Delete, Shift+Tab, Esc, Alt+key, and
 * Shift/Alt+Enter as a newline where the terminal tells it apart. An unknown sequence is
 * dropped, never typed.
 */
export function decodeEscape(sequence: string): readonly KeyEvent[] {
  // ESC ESC [A is Alt+↑ on some terminals: the same key for this UI.
  const body = sequence.startsWith(`${ESC}${ESC}`) && sequence.length > 2 ? sequence.slice(1) : sequence;
  if (body === ESC || body === `${ESC}${ESC}`) return [typed('', { escape: true })];
  if (body === `${ESC}\r` || body === `${ESC}\n`) return [NEWLINE];
  if (body === `${ESC}\x7f` || body === `${ESC}\b`) return [typed('w', { ctrl: true })];
  const csi = /^\x1b\[([\d;]*)([A-Za-z~])$/.exec(body);
  if (csi) {
    const parameters = (csi[1] ?? '').split(';');
    const final = csi[2] ?? '';
    if (final === '~') {
      if (parameters[0] === '27') return codeKey(Number(parameters[2]), parameters[1]);
      const flags = TILDE_CODES[parameters[0] ?? ''];
      return flags ? [typed('', flags)] : [];
    }
    if (final === 'u') return codeKey(Number(parameters[0]), parameters[1]);
    const flags = CSI_FINAL[final];
    return flags ? [typed('', { ...flags, ...(final === 'Z' ? {} : { shift: modifiers(parameters[1]).shift }) })] : [];
  }
  const ss3 = /^\x1bO([A-DHF])$/.exec(body);
  if (ss3) return [typed('', CSI_FINAL[ss3[1] ?? ''] ?? {})];
  const rest = body.slice(1);
  if ([...rest].length === 1 && rest >= ' ') return [typed(rest, { meta: true })];
  return [];
}
