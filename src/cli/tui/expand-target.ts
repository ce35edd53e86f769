import { CALL_PHASES } from './call-phases.js';
import { plural } from './plural.js';
import { savedNote } from './result-text.js';
import { groupEntries, isSettled, type CallView, type TranscriptState } from './transcript-state.js';

/** What ctrl+o opens: a title and the whole text. */
export type ExpandTarget = { readonly title: string; readonly text: string };

function headline(call: CallView): string {
  return `${CALL_PHASES[call.phase].mark} ${call.toolName} ${call.summary}`.trimEnd();
}

/** A call's whole result as people read it: where a large output was saved, then its text or error. */
function callText(call: CallView): string {
  const result = call.result;
  const note = savedNote(result);
  const saved = note === undefined ? [] : [`${note}.`, ''];
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
