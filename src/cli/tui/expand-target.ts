import { plural } from './plural.js';
import { groupEntries, isSettled, type CallView, type TranscriptState } from './transcript-state.js';

/** What ctrl+o opens: a title and the whole text. */
export type ExpandTarget = { readonly title: string; readonly text: string };

const MARKS: Readonly<Record<CallView['phase'], string>> = {
  queued: '○',
  'awaiting-approval': '?',
  running: '◐',
  done: '✔',
  failed: '✘',
  denied: '⊘',
  cancelled: '⊘',
  interrupted: '■',
};

function headline(call: CallView): string {
  return `${MARKS[call.phase]} ${call.toolName} ${call.summary}`.trimEnd();
}

/** A call's whole result as people read it: where a large output was saved, then its text or error. */
function callText(call: CallView): string {
  const result = call.result;
  const saved =
    result?.savedPath !== undefined
      ? [`Output too large: saved to ${result.savedPath}${result.savedSize ? ` (${result.savedSize})` : ''}.`, '']
      : [];
  const body = call.phase === 'done' ? (result?.text ?? '') : (call.detail ?? result?.text ?? '');
  return [...saved, body === '' ? '(no output)' : body].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * The latest finished call's result, or, when it ran in a parallel batch, every call of that
 * batch with its result indented under it. Undefined while no call has finished. Pure.
 */
export function expandTarget(state: TranscriptState): ExpandTarget | undefined {
  const blocks = groupEntries(state.entries, state.calls);
  for (let index = blocks.length - 1; index >= 0; index--) {
    const block = blocks[index];
    if (block === undefined) continue;
    const ids = block.kind === 'batch' ? block.toolUseIds : block.entry.kind === 'call' ? [block.entry.toolUseId] : [];
    const calls = ids.flatMap((id) => state.calls.get(id) ?? []);
    if (!calls.some((call) => isSettled(call.phase))) continue;
    if (block.kind === 'entry' && calls[0] !== undefined) {
      return { title: headline(calls[0]), text: callText(calls[0]) };
    }
    return {
      title: `${plural(calls.length, 'call')} in parallel`,
      text: calls.map((call) => `${headline(call)}\n${indent(callText(call))}`).join('\n'),
    };
  }
  return undefined;
}
