import { TOOL_SEARCH_NAME } from './tool-search-name.js';

/**
 * The text that announces deferred tools by name, placed in the conversation (not in the cached
 * prefix, so a changing list does not break the prompt cache). Lists the servers still
 * connecting. Empty when there is nothing to announce.
 */
export function deferredToolsAnnouncement(names: readonly string[], pendingServers: readonly string[] = []): string {
  if (names.length === 0 && pendingServers.length === 0) return '';
  const lines: string[] = [];
  if (names.length > 0) {
    lines.push(
      `The following deferred tools are available. Their schemas are not loaded: call ${TOOL_SEARCH_NAME} to load a tool before calling it (query "select:<name>" for a known name, or keywords to search).`,
      ...[...names].sort().map((name) => `- ${name}`),
    );
  }
  if (pendingServers.length > 0) {
    lines.push(`MCP servers still connecting (their tools are not listed yet): ${pendingServers.join(', ')}.`);
  }
  return lines.join('\n');
}
