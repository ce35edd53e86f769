import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';
import type { Message } from '../messages/types.js';
import { compactMessages } from '../loop/auto-compact.js';

/**
 * `/compact`: PreCompact hooks (trigger `manual`), then the history summarized except the last
 * two messages, the discovered tools carried over, then PostCompact hooks with the summary.
 * Returns the new history (none when there was nothing to compact) and a line for people.
 */
export async function compactManually(options: {
  readonly hooks: HookPlane;
  readonly session: HookSession;
  readonly messages: readonly Message[];
  readonly summarize: (messages: readonly Message[], signal: AbortSignal) => Promise<string>;
  readonly signal: AbortSignal;
}): Promise<{ readonly messages?: readonly Message[]; readonly report: string }> {
  const { signal } = options;
  await options.hooks.preCompact({ session: options.session, signal, trigger: 'manual' });
  const compacted = await compactMessages({
    messages: options.messages,
    summarize: options.summarize,
    signal,
    keepRecent: 2,
  });
  if (!compacted) return { report: 'Nothing to compact yet.' };
  await options.hooks.postCompact({
    session: options.session,
    signal,
    trigger: 'manual',
    compactSummary: compacted.summary,
  });
  return { messages: compacted.messages, report: `Compacted ${compacted.removed} messages into a summary.` };
}
