import type { ToolResultBlock } from '../../messages/types.js';
import { savedOutputPath } from '../../session/index.js';

/** A call's result as people read it: the tool's words without what only the model needs. */
export type CallResult = {
  /** The whole text, cleaned ({@link textForPeople}); what the expand view shows. */
  readonly text: string;
  /** Lines of `text`. */
  readonly lineCount: number;
  /** Set when the output was too large and saved to a file: that file. */
  readonly savedPath?: string;
  /** How large the saved output was, as its note said (`12000 bytes`). */
  readonly savedSize?: string;
};

/** Where a too-large output went, as people read it (`Output too large: saved to PATH (12000 bytes)`). */
export function savedNote(result: CallResult | undefined): string | undefined {
  if (result?.savedPath === undefined) return undefined;
  return `Output too large: saved to ${result.savedPath}${result.savedSize !== undefined ? ` (${result.savedSize})` : ''}`;
}

// Sentences written to steer the model ("do not retry…", "call it again…"): true for the model,
// noise for a person reading the screen. Each pattern runs from its opening words to the end of
// its sentence.
const MODEL_SENTENCES: readonly RegExp[] = [
  /\s*Do not retry\b[^\n]*?(?:\.(?=\s|$)|$)/g,
  /;?\s*do not retry, take another approach\./g,
  /\s*Fix the input and call \S+ again\./g,
  /\s*Call only the tools listed in this request, by their exact names\./g,
  /\s*Try a narrower or faster request\./g,
  /\s*Wait for their next instruction\./g,
  /\s*Check that failure, then send this call again if it still applies\./g,
  /\s*If it needs longer, run it with run_in_background[^\n]*?(?:\.(?=\s|$)|$)/g,
  /\s*Narrow the request to see the rest\./g,
];

const SPILL_NOTE = /^\[Output too large to show: ([^.;]+)[.;][^\n]*\]\n?/;
const NO_OUTPUT = /^\(\S+ completed with no output\)$/;

/**
 * The text parts of a result joined by newlines; a tool ToolSearch loaded shows as
 * `loaded NAME`, an image or document as `[image]`/`[document]`.
 */
export function resultPlainText(content: ToolResultBlock['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      part.type === 'text' ? part.text : part.type === 'tool_reference' ? `loaded ${part.tool_name}` : `[${part.type}]`,
    )
    .join('\n');
}

/**
 * Text meant for the model made fit for people: `<tool_use_error>` wrappers removed, sentences
 * that only steer the model dropped, tabs expanded, trailing blank lines trimmed, and the
 * "no output" placeholder shown as `(no output)`. Never adds words of its own.
 */
export function textForPeople(text: string): string {
  let out = text.replace(/<\/?tool_use_error>/g, '');
  for (const pattern of MODEL_SENTENCES) out = out.replace(pattern, '');
  out = out.replaceAll('\t', '    ').replace(/\s+$/, '');
  return NO_OUTPUT.test(out) ? '(no output)' : out;
}

/** Lines of `text`: 0 for empty text, else one more than its line feeds. */
export function countLines(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/**
 * What a result shows: its cleaned text and, for an output too large for the model that was
 * saved to a file, that file and its size (the note the model got is replaced by them; the
 * preview that followed the note stays as the text).
 */
export function describeResult(result: ToolResultBlock): CallResult {
  const raw = resultPlainText(result.content);
  const savedPath = savedOutputPath(result.content);
  const note = SPILL_NOTE.exec(raw);
  const body = textForPeople(note ? raw.slice(note[0].length) : raw);
  return {
    text: body,
    lineCount: countLines(body),
    ...(savedPath !== undefined ? { savedPath } : {}),
    ...(note?.[1] !== undefined && savedPath !== undefined ? { savedSize: note[1] } : {}),
  };
}

/** The first `max` lines of `text` and how many more there are. */
export function previewLines(text: string, max: number): { readonly lines: readonly string[]; readonly more: number } {
  if (text === '') return { lines: [], more: 0 };
  const all = text.split('\n');
  // Showing "+1 line" costs a row like the line itself does: show the line instead.
  const shown = all.length === max + 1 ? all : all.slice(0, max);
  return { lines: shown, more: all.length - shown.length };
}
