import type { Usage } from '../contract/provider.js';

/** A model's list prices, in USD per million tokens. */
export type ModelPrice = {
  readonly input: number;
  readonly output: number;
  /** Cache hits. Default: a tenth of `input`. */
  readonly cacheRead?: number;
  /** Cache writes (the 5-minute lifetime). Default: 1.25 × `input`. */
  readonly cacheWrite?: number;
};

/**
 * Anthropic's list prices (platform.claude.com, "Pricing" and each model's overview page, read
 * 2026-12-03), keyed by model id prefix: the longest prefix that ends at a separator of the id
 * decides, so a dated id (`claude-sonnet-5-5-20260901`) takes its model's row and never a
 * neighbour's. Cache writes are priced at the 5-minute rate (responses do not say which lifetime
 * they wrote). Claude Haiku 5.5 is priced at its rate for prompts up to 100,000 tokens. A model
 * not listed here (a local one, an OpenAI-compatible server's) costs 0 unless `modelPrices`
 * in the settings gives it a price.
 */
export const LIST_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-fable-5-1': { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  'claude-mythos-5-1': { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  'claude-fable-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  'claude-mythos-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  'claude-opus-5-5': { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 },
  'claude-opus-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-8': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-7': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  'claude-sonnet-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
};

/** Where a model's price came from: the list above, the settings' `modelPrices`, or nowhere (it costs 0). */
export type PriceBasis = 'list' | 'settings' | 'unknown';

/** The price table: the list prices with the settings' `modelPrices` over them. */
export type PriceTable = {
  priceOf(model: string): { readonly price: ModelPrice; readonly basis: PriceBasis } | undefined;
  /** USD for `usage` on `model`; 0 for a model without a price. */
  costOf(model: string, usage: Usage): number;
};

function longestPrefix(table: Readonly<Record<string, ModelPrice>>, id: string): ModelPrice | undefined {
  // A cloud's id (`us.anthropic.claude-…`, `…/claude-…`) is priced as the model it names.
  const model = id.replace(/^.*\//, '').replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '');
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const fits = model === key || (model.startsWith(key) && /[-@:.[]/.test(model.charAt(key.length)));
    if (fits && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** The table, with `overrides` (exact ids or prefixes, as in the list) taking precedence over the list prices. */
export function createPriceTable(overrides: Readonly<Record<string, ModelPrice>> = {}): PriceTable {
  const priceOf = (model: string) => {
    const own = longestPrefix(overrides, model);
    if (own) return { price: own, basis: 'settings' as const };
    const listed = longestPrefix(LIST_PRICES, model);
    return listed ? { price: listed, basis: 'list' as const } : undefined;
  };
  return {
    priceOf,
    costOf(model, usage) {
      const price = priceOf(model)?.price;
      if (!price) return 0;
      const perToken =
        usage.inputTokens * price.input +
        usage.outputTokens * price.output +
        (usage.cacheReadInputTokens ?? 0) * (price.cacheRead ?? price.input * 0.1) +
        (usage.cacheCreationInputTokens ?? 0) * (price.cacheWrite ?? price.input * 1.25);
      return perToken / 1_000_000;
    },
  };
}
