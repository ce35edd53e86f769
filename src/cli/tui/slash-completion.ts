/** One command offered while a slash command is typed: its name (without `/`) and one line of help. */
export type SlashChoice = { readonly name: string; readonly help: string };

/** The commands offered for what is typed, and which of them is selected. */
export type SlashCompletion = { readonly choices: readonly SlashChoice[]; readonly selected: number };

/** At most this many commands are listed under the prompt. */
const MAX_SLASH_CHOICES = 8;

/**
 * The commands whose names start with the typed word, while the field holds only `/word` (no
 * space, no second line, not `//`); undefined otherwise. `selected` names the highlighted
 * command; when it is not among the matches, the first one is highlighted.
 */
export function slashCompletion(options: {
  readonly value: string;
  readonly commands: ReadonlyMap<string, string>;
  readonly selected?: string;
}): SlashCompletion | undefined {
  const match = /^\/([^\s/]*)$/.exec(options.value);
  if (!match) return undefined;
  const word = (match[1] ?? '').toLowerCase();
  const choices = [...options.commands]
    .filter(([name]) => name.startsWith(word))
    .slice(0, MAX_SLASH_CHOICES)
    .map(([name, help]) => ({ name, help }));
  if (choices.length === 0) return undefined;
  const selected = choices.findIndex((choice) => choice.name === options.selected);
  return { choices, selected: Math.max(0, selected) };
}

/** The command one step up or down from the selected one, wrapping around. */
export function moveSlashSelection(completion: SlashCompletion, direction: 'up' | 'down'): string {
  const count = completion.choices.length;
  const next = (completion.selected + (direction === 'up' ? count - 1 : 1)) % count;
  return completion.choices[next]?.name ?? '';
}

/** The completion list to show under the prompt for `value`, if any. */
export function completionFor(
  value: string,
  extras: {
    readonly slashCommands: ReadonlyMap<string, string>;
    readonly slashSelected: { readonly current: string | undefined };
  },
): SlashCompletion | undefined {
  const selected = extras.slashSelected.current;
  return slashCompletion({ value, commands: extras.slashCommands, ...(selected !== undefined ? { selected } : {}) });
}
