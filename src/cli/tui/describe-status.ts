import type { HostStatus } from './interactive-host.js';

/** Token counts as people read them: 950, 9.5k, 123k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** US dollars as people read a running cost: $0.0042 below a cent, else $0.42, $12.30. */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/**
 * The status line's text: provider/model, permission mode, tokens used and their cost (tokens
 * only for a model without a price), context used (tokens / window, %), session id.
 */
export function describeStatus(status: HostStatus): string {
  const share = status.contextWindow > 0 ? Math.round((status.contextTokens / status.contextWindow) * 100) : 0;
  return [
    `${status.provider}/${status.model}`,
    `mode ${status.mode}`,
    ...(status.tokensUsed === undefined ? [] : [`${formatTokens(status.tokensUsed)} tokens`]),
    ...(status.costUsd === undefined ? [] : [formatUsd(status.costUsd)]),
    `context ${formatTokens(status.contextTokens)}/${formatTokens(status.contextWindow)} (${share}%)`,
    `session ${status.sessionId}`,
  ].join(' · ');
}
