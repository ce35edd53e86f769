import type { Usage } from '../contract/provider.js';
import type { PriceTable } from '../providers/index.js';

/** What a session's requests used: tokens, and their cost when every model has a price. */
export type SessionSpending = { readonly tokensUsed: number; readonly costUsd?: number };

function tokensOf(usage: Usage): number {
  return (
    usage.inputTokens + usage.outputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0)
  );
}

/**
 * Totals a session meter's per-model usage. The cost is left out when a model used, or the
 * current model before any request, has no price: a sum that counts such a model as free would
 * mislead. Pure.
 */
export function sessionSpending(options: {
  readonly byModel: Readonly<Record<string, { readonly usage: Usage; readonly costUsd: number }>>;
  readonly currentModel: string;
  readonly prices: Pick<PriceTable, 'priceOf'>;
}): SessionSpending {
  const entries = Object.entries(options.byModel);
  const tokensUsed = entries.reduce((sum, [, entry]) => sum + tokensOf(entry.usage), 0);
  const models = entries.length === 0 ? [options.currentModel] : entries.map(([model]) => model);
  if (models.some((model) => options.prices.priceOf(model) === undefined)) return { tokensUsed };
  return { tokensUsed, costUsd: entries.reduce((sum, [, entry]) => sum + entry.costUsd, 0) };
}
