import type { HostStatus } from './interactive-host.js';

/** Token counts as people read them: 950, 9.5k, 123k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** The status line's text: provider/model, permission mode, context used (tokens / window, %), session id. */
export function describeStatus(status: HostStatus): string {
  const share = status.contextWindow > 0 ? Math.round((status.contextTokens / status.contextWindow) * 100) : 0;
  return [
    `${status.provider}/${status.model}`,
    `mode ${status.mode}`,
    `context ${formatTokens(status.contextTokens)}/${formatTokens(status.contextWindow)} (${share}%)`,
    `session ${status.sessionId}`,
  ].join(' · ');
}
