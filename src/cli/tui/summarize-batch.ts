import { plural } from './plural.js';
import { isSettled, type CallPhase, type CallView } from './transcript-state.js';

/** Batches of at least this many calls show as one summary row. */
export const COLLAPSE_AT = 4;

/** Calls of a collapsed batch shown as their own rows under the summary (failures, approvals). */
export const SHOWN_APART = 3;

/** One row standing for a parallel batch. */
export type BatchSummary = {
  /** `Read 300 files`, or `12 calls: Read ×8, Grep ×4` for mixed tools. */
  readonly title: string;
  /** `298 ok · 2 failed`: how many calls are in each state, non-zero ones only. */
  readonly counts: string;
  /** The phase of the batch as a whole: running until every call settled, then failed if any failed. */
  readonly phase: CallPhase;
  /** Calls that need a look of their own: failed, refused, or waiting for approval. */
  readonly apart: readonly CallView[];
};

// What one call of a tool is about, for "Read 300 files".
const NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  Read: ['file', 'files'],
  Write: ['file', 'files'],
  Edit: ['file', 'files'],
  Glob: ['pattern', 'patterns'],
  Grep: ['search', 'searches'],
  Bash: ['command', 'commands'],
  WebFetch: ['page', 'pages'],
  WebSearch: ['search', 'searches'],
};

const BUCKETS: ReadonlyArray<readonly [string, (phase: CallPhase) => boolean]> = [
  ['ok', (phase) => phase === 'done'],
  ['failed', (phase) => phase === 'failed'],
  ['denied', (phase) => phase === 'denied'],
  ['cancelled', (phase) => phase === 'cancelled'],
  ['interrupted', (phase) => phase === 'interrupted'],
  ['waiting for approval', (phase) => phase === 'awaiting-approval'],
  ['running', (phase) => phase === 'running'],
  ['queued', (phase) => phase === 'queued'],
];

function titleOf(calls: readonly CallView[]): string {
  const byTool = new Map<string, number>();
  for (const call of calls) byTool.set(call.toolName, (byTool.get(call.toolName) ?? 0) + 1);
  if (byTool.size === 1) {
    const [tool] = byTool.keys();
    const name = tool ?? '';
    const [one, many] = NOUNS[name] ?? ['call', 'calls'];
    return `${name} ${plural(calls.length, one, many)}`;
  }
  const parts = [...byTool].map(([tool, count]) => `${tool} ×${count}`);
  return `${plural(calls.length, 'call')}: ${parts.join(', ')}`;
}

/** The summary of a parallel batch's calls ({@link BatchSummary}). Pure. */
export function summarizeBatch(calls: readonly CallView[]): BatchSummary {
  const counts = BUCKETS.flatMap(([label, test]) => {
    const count = calls.filter((call) => test(call.phase)).length;
    return count > 0 ? [`${count} ${label}`] : [];
  }).join(' · ');
  const open = calls.some((call) => !isSettled(call.phase));
  const phase: CallPhase = open
    ? 'running'
    : calls.some((call) => call.phase === 'failed' || call.phase === 'denied')
      ? 'failed'
      : calls.every((call) => call.phase === 'done')
        ? 'done'
        : 'interrupted';
  const apart = calls.filter(
    (call) => call.phase === 'failed' || call.phase === 'denied' || call.phase === 'awaiting-approval',
  );
  return { title: titleOf(calls), counts, phase, apart };
}
