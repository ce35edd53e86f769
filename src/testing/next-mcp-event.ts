import type { McpManager } from '../mcp/mcp-manager.js';
import type { McpManagerEvent } from '../mcp/mcp-manager-types.js';

/**
 * The next event of `type` (that `predicate` accepts) an MCP manager reports; rejects after
 * `timeoutMs` (default 15 s) so a test fails instead of hanging.
 */
export function nextMcpEvent<T extends McpManagerEvent['type']>(
  manager: McpManager,
  type: T,
  predicate: (event: Extract<McpManagerEvent, { type: T }>) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Extract<McpManagerEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${type} event`));
    }, timeoutMs);
    const unsubscribe = manager.subscribe((event) => {
      if (event.type !== type || !predicate(event as Extract<McpManagerEvent, { type: T }>)) return;
      clearTimeout(guard);
      unsubscribe();
      resolve(event as Extract<McpManagerEvent, { type: T }>);
    });
  });
}
