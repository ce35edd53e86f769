import type { StopReason, Usage } from '../../contract/provider.js';
import type { PriceTable } from '../../providers/index.js';
import type { RunUsage } from '../../session/index.js';

/** The context window and output limit a model's entry in `modelUsage` reports. */
export type ModelLimits = { readonly contextWindow: number; readonly maxOutputTokens: number };

/**
 * Token counts in the Messages API's full `usage` shape, every key the Agent SDK reads: the 5m/1h
 * cache split (all our cache writes are 5-minute ones), no server tools, standard tier and speed.
 */
export function apiUsageOf(usage: Usage) {
  const cacheWrite = usage.cacheCreationInputTokens ?? 0;
  return {
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
    fallback_credit: null,
    inference_geo: '',
    input_tokens: usage.inputTokens,
    iterations: [],
    output_tokens: usage.outputTokens,
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_fetch_requests: 0, web_search_requests: 0 },
    service_tier: 'standard' as const,
    speed: 'standard' as const,
  };
}

/**
 * `modelUsage` of a result: per model, its tokens and cost, the limits it ran with, and where its
 * price came from (`list`: the built-in list; `managed`: the settings' `modelPrices`; `unknown`:
 * no price, so the model counted 0, as a local model does).
 */
export function modelUsageOf(modelUsage: RunUsage['modelUsage'], prices: PriceTable, limits: ModelLimits) {
  return Object.fromEntries(
    Object.entries(modelUsage).map(([model, { usage, costUsd }]) => {
      const basis = prices.priceOf(model)?.basis;
      return [
        model,
        {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
          cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
          cacheCreationEphemeral5mInputTokens: usage.cacheCreationInputTokens ?? 0,
          cacheCreationEphemeral1hInputTokens: 0,
          webSearchRequests: 0,
          costUSD: costUsd,
          contextWindow: limits.contextWindow,
          maxOutputTokens: limits.maxOutputTokens,
          costBasis: basis === 'list' ? 'list' : basis === 'settings' ? 'managed' : 'unknown',
        },
      ];
    }),
  );
}

/** A stop reason under the Messages API's name; ours that has none there (`other`) is null. */
export function apiStopReason(reason: StopReason | undefined) {
  return reason === undefined || reason === 'other' ? null : reason;
}
