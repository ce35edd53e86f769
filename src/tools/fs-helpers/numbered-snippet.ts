/**
 * A few numbered lines (`cat -n` style) around a changed region of a text, so the model sees the
 * result of its change without reading the file again.
 */
export function numberedSnippet(options: {
  readonly text: string;
  /** Character index where the change starts in `text`. */
  readonly start: number;
  /** Character index just past the change in `text`. */
  readonly end: number;
  readonly contextLines?: number;
  readonly maxLines?: number;
}): string {
  const context = options.contextLines ?? 3;
  const maxLines = options.maxLines ?? 40;
  const lines = options.text.split('\n');
  const firstChanged = countNewlines(options.text, 0, options.start);
  const lastChanged =
    firstChanged + countNewlines(options.text, options.start, Math.max(options.start, options.end - 1));
  const from = Math.max(0, firstChanged - context);
  const to = Math.min(lines.length - 1, lastChanged + context, from + maxLines - 1);
  const rows: string[] = [];
  for (let index = from; index <= to; index++) rows.push(`${String(index + 1).padStart(6)}\t${lines[index] ?? ''}`);
  return rows.join('\n');
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++;
  return count;
}
