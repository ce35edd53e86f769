import type { Message } from '../messages/types.js';
import { compactHistory, findCompactionCut } from './compact-history.js';
import { discoveryOrder } from './deferral.js';
import type { LoopEvent, LoopHooks, QueryOptions } from './types.js';

/** Messages kept verbatim after a compaction (at least; the cut moves back to a safe boundary). */
export const KEEP_RECENT_MESSAGES = 6;

/**
 * Compacts the history: older turns are summarized by the model and replaced by one message, the
 * recent ones are kept as they are, and the result stays protocol-valid. Returns `undefined` when
 * there is nothing old enough to compact.
 */
export async function compactMessages(options: {
  readonly messages: readonly Message[];
  readonly summarize: (messages: readonly Message[], signal: AbortSignal) => Promise<string>;
  readonly signal: AbortSignal;
  readonly keepRecent?: number;
}): Promise<{ messages: Message[]; summary: string; removed: number } | undefined> {
  const cut = findCompactionCut(options.messages, options.keepRecent ?? KEEP_RECENT_MESSAGES);
  if (cut <= 0) return undefined;
  const old = options.messages.slice(0, cut);
  const summary = await options.summarize(old, options.signal);
  // In order of discovery, so the tools[] after the compaction lists them as the model found them.
  const discovered = [...discoveryOrder(old).keys()];
  return {
    messages: compactHistory({ messages: options.messages, cut, summary, discovered }),
    summary,
    removed: cut,
  };
}

/** Compacts when the last request used more than the threshold of the context window. */
export async function* maybeCompact(options: {
  readonly messages: readonly Message[];
  readonly lastInputTokens: number;
  readonly compaction: NonNullable<QueryOptions['compaction']>;
  readonly hooks: LoopHooks | undefined;
  readonly signal: AbortSignal;
}): AsyncGenerator<LoopEvent, Message[] | undefined> {
  const limit = options.compaction.contextWindowTokens * (options.compaction.threshold ?? 0.8);
  if (options.lastInputTokens <= limit) return undefined;
  // Nothing old enough to cut: no summary request, and no PreCompact hook for a compaction that
  // will not happen (the loop would otherwise fire it on every turn).
  if (findCompactionCut(options.messages, options.compaction.keepRecent ?? KEEP_RECENT_MESSAGES) <= 0) return undefined;
  try {
    await options.hooks?.preCompact?.({ trigger: 'auto' }, options.signal);
    const compacted = await compactMessages({
      messages: options.messages,
      summarize: options.compaction.summarize,
      signal: options.signal,
      ...(options.compaction.keepRecent !== undefined ? { keepRecent: options.compaction.keepRecent } : {}),
    });
    if (!compacted) return undefined;
    yield { type: 'compact', removedMessages: compacted.removed, summary: compacted.summary };
    return compacted.messages;
  } catch (error) {
    yield {
      type: 'notice',
      message: `Compaction failed, continuing with the full history: ${error instanceof Error ? error.message : String(error)}`,
    };
    return undefined;
  }
}
