import { plural } from './plural.js';
import { previewLines, savedNote } from './result-text.js';
import type { CallView } from './transcript-state.js';

/** Lines of a result shown under its row before "+N lines (ctrl+o to expand)". */
const PREVIEW_LINES = 4;

/** What a call's row shows under its title. */
export type CallPreview = {
  readonly lines: readonly string[];
  /** Lines left out, shown as "+N lines (ctrl+o to expand)". */
  readonly more: number;
  readonly tone: 'output' | 'error';
  /** A line saying where a too-large output was saved. */
  readonly saved?: string;
};

// Tools whose result the screen already shows another way (the todo panel, the plan dialog,
// the diff), or whose text is written only for the model.
const NO_PREVIEW: ReadonlySet<string> = new Set(['TodoWrite', 'ExitPlanMode', 'EnterPlanMode']);

/**
 * What a row shows under its title: the live output tail while Bash runs; for a finished call
 * the first {@link PREVIEW_LINES} lines of its result (Read: how many lines it read), or the
 * error in the tool's words for a failure, and where a too-large output was saved. Undefined
 * when there is nothing to show. Pure.
 */
export function callPreview(call: CallView): CallPreview | undefined {
  if (call.phase === 'running' || call.phase === 'queued' || call.phase === 'awaiting-approval') {
    return call.outputTail.length > 0 ? { lines: call.outputTail, more: 0, tone: 'output' } : undefined;
  }
  if (call.phase === 'failed' && call.detail !== undefined) {
    return { ...previewLines(call.detail, PREVIEW_LINES), tone: 'error' };
  }
  const result = call.result;
  if (call.phase !== 'done' || result === undefined) return undefined;
  const saved = savedNote(result);
  const withSaved = saved !== undefined ? { saved } : {};
  if (saved === undefined && (result.text === '' || NO_PREVIEW.has(call.toolName) || call.diff !== undefined)) {
    return undefined;
  }
  if (call.toolName === 'Read' && saved === undefined) {
    return { lines: [`Read ${plural(result.lineCount, 'line')}`], more: 0, tone: 'output' };
  }
  return { ...previewLines(result.text, PREVIEW_LINES), tone: 'output', ...withSaved };
}
