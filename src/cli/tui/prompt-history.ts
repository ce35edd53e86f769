/**
 * What the prompt field recalls with ↑ and ↓: earlier prompts of this run, newest last, and
 * where the person is in them (`undefined`: editing a new line, kept as `draft`).
 */
export type PromptHistory = {
  readonly entries: readonly string[];
  readonly index: number | undefined;
  readonly draft: string;
};

/** No earlier prompts. */
export const EMPTY_HISTORY: PromptHistory = { entries: [], index: undefined, draft: '' };

/** Most prompts kept. */
const LIMIT = 200;

/** Adds a submitted prompt (not a repeat of the last one) and returns to a new line. */
export function rememberPrompt(history: PromptHistory, text: string): PromptHistory {
  const trimmed = text.trim();
  if (trimmed === '' || history.entries[history.entries.length - 1] === text)
    return { ...history, index: undefined, draft: '' };
  return { entries: [...history.entries, text].slice(-LIMIT), index: undefined, draft: '' };
}

/** ↑: the previous prompt; the line being edited is kept as the draft. */
export function olderPrompt(
  history: PromptHistory,
  current: string,
): { readonly history: PromptHistory; readonly text: string } | undefined {
  if (history.entries.length === 0 || history.index === 0) return undefined;
  const index = history.index === undefined ? history.entries.length - 1 : history.index - 1;
  const draft = history.index === undefined ? current : history.draft;
  return { history: { ...history, index, draft }, text: history.entries[index]! };
}

/** ↓: the next prompt, or back to the draft after the newest. */
export function newerPrompt(
  history: PromptHistory,
): { readonly history: PromptHistory; readonly text: string } | undefined {
  if (history.index === undefined) return undefined;
  if (history.index >= history.entries.length - 1)
    return { history: { ...history, index: undefined }, text: history.draft };
  const index = history.index + 1;
  return { history: { ...history, index }, text: history.entries[index]! };
}
