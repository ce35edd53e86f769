import { Text } from 'ink';
import type { HostStatus } from './interactive-host.js';

/** Token counts as people read them: 950, 12.3k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** The one-line status: provider/model, permission mode, context used, session id. */
export function describeStatus(status: HostStatus): string {
  const share = status.contextWindow > 0 ? Math.round((status.contextTokens / status.contextWindow) * 100) : 0;
  return [
    `${status.provider}/${status.model}`,
    `mode ${status.mode}`,
    `context ${formatTokens(status.contextTokens)}/${formatTokens(status.contextWindow)} (${share}%)`,
    `session ${status.sessionId}`,
  ].join(' · ');
}

/** The status line under the prompt, with a hint on the right when there is one. */
export function StatusLine(props: { readonly status: HostStatus; readonly hint?: string }) {
  return (
    <Text dimColor wrap="truncate-end">
      {describeStatus(props.status)}
      {props.hint ? ` · ${props.hint}` : ''}
    </Text>
  );
}
