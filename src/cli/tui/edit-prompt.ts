import { editLine, EMPTY_LINE, lineOf, type KeyPress, type LineState } from './edit-line.js';
import { newerPrompt, olderPrompt, rememberPrompt, type PromptHistory } from './prompt-history.js';
import { completionFor, moveSlashSelection } from './slash-completion.js';
import { moveVertically } from './text-lines.js';
import type { RunningWork } from './use-turns.js';

type Ref<T> = { current: T };

/** What the prompt line's keys reach, read at the moment the key arrives. */
export type PromptRoutes = {
  readonly setHint: (update: string | undefined | ((current: string | undefined) => string | undefined)) => void;
  readonly turn: Ref<RunningWork | undefined>;
  readonly working: Ref<string | undefined>;
  readonly promptHistory: Ref<PromptHistory>;
  readonly line: Ref<LineState>;
  readonly setLine: (line: LineState) => void;
  readonly submitLine: (text: string) => void;
  /** The slash commands offered while `/word` is typed: name (without `/`) → one line of help. */
  readonly slashCommands: ReadonlyMap<string, string>;
  /** The command highlighted in the completion list. */
  readonly slashSelected: Ref<string | undefined>;
  readonly setSlashSelected: (name: string | undefined) => void;
  /** Shift+Tab: the next permission mode. */
  readonly cycleMode: () => void;
};

/** Interrupts the running turn or background command; false when nothing runs (or it is already stopping). */
function interruptWork(routes: Pick<PromptRoutes, 'turn' | 'working' | 'setHint'>): boolean {
  const running = routes.turn.current;
  if (!running || running.controller.signal.aborted) return false;
  running.controller.abort();
  routes.setHint(routes.working.current ? `stopping: ${routes.working.current}` : 'interrupting…');
  return true;
}

/**
 * Ctrl+C: interrupts what runs; on an idle prompt with text, clears it. Returns false when there
 * was nothing to interrupt or clear (then a second Ctrl+C exits).
 */
export function interruptOrClear(routes: PromptRoutes): boolean {
  if (interruptWork(routes)) return true;
  if (routes.turn.current || routes.line.current.value === '') return false;
  routes.setLine(EMPTY_LINE);
  return true;
}

function submit(routes: PromptRoutes, text: string): void {
  routes.promptHistory.current = rememberPrompt(routes.promptHistory.current, text);
  routes.submitLine(text);
}

/** ↑/↓ with a slash completion open, Tab to complete, Enter to run the highlighted command; true when taken. */
function completeSlash(routes: PromptRoutes, key: KeyPress): boolean {
  if (key.paste) return false;
  const value = routes.line.current.value;
  const completion = completionFor(value, routes);
  const chosen = completion?.choices[completion.selected];
  if (!completion || !chosen) return false;
  if (key.upArrow || key.downArrow) {
    routes.setSlashSelected(moveSlashSelection(completion, key.upArrow ? 'up' : 'down'));
    return true;
  }
  if (key.tab && !key.shift) {
    routes.setLine(lineOf(`/${chosen.name} `));
    return true;
  }
  if (key.return) {
    // A command typed in full runs as typed; a prefix runs the highlighted command.
    const typed = value.slice(1).toLowerCase();
    submit(routes, completion.choices.some((choice) => choice.name === typed) ? value : `/${chosen.name}`);
    return true;
  }
  return false;
}

/**
 * A key for the prompt: Esc interrupts, Shift+Tab cycles the mode, the slash completion takes its
 * keys, ↑/↓ move between the prompt's lines and past them recall earlier prompts, and the rest
 * edits the multi-line prompt (Enter sends it).
 */
export function editPrompt(routes: PromptRoutes, input: string, key: KeyPress): void {
  if (key.escape) return void interruptWork(routes);
  if (key.tab && key.shift) return routes.cycleMode();
  if (completeSlash(routes, key)) return;
  const line = routes.line.current;
  if (key.upArrow || key.downArrow) {
    const moved = moveVertically(line, key.upArrow ? 'up' : 'down');
    if (moved) return routes.setLine(moved);
    const recalled = key.upArrow
      ? olderPrompt(routes.promptHistory.current, line.value)
      : newerPrompt(routes.promptHistory.current);
    if (recalled) {
      routes.promptHistory.current = recalled.history;
      routes.setLine(lineOf(recalled.text));
    }
    return;
  }
  const edit = editLine(line, input, key, { multiline: true });
  routes.setLine(edit.state);
  if (edit.action === 'submit') submit(routes, edit.state.value);
}
