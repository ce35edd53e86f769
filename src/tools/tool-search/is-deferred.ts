import type { AnyTool } from '../../contract/tool.js';

/** Which tools are deferred: announced by name, their schemas loaded through ToolSearch. */
export type DeferralPolicy = {
  /** Whether external (MCP) tools are deferred when nothing more specific says. Default true. */
  readonly deferExternal?: boolean;
  /** Per server (by server name): true defers its tools, false loads them upfront. */
  readonly servers?: ReadonlyMap<string, boolean>;
  /** Per tool (by pool name): wins over the server and the default. */
  readonly tools?: ReadonlyMap<string, boolean>;
};

/**
 * Whether `tool` is deferred under `policy`. In order: `alwaysLoad` tools and ToolSearch itself
 * never are; then a per-tool setting; then, for external tools, a per-server setting, else
 * `deferExternal` (default true, whatever their number); built-ins are deferred when they say
 * `shouldDefer`.
 */
export function isDeferred(tool: AnyTool, policy: DeferralPolicy = {}): boolean {
  if (tool.alwaysLoad || tool.builtin === 'ToolSearch') return false;
  const perTool = policy.tools?.get(tool.name);
  if (perTool !== undefined) return perTool;
  if (tool.origin === 'external') {
    const server = tool.external?.server;
    const perServer = server === undefined ? undefined : policy.servers?.get(server);
    return perServer ?? policy.deferExternal ?? true;
  }
  return tool.shouldDefer;
}
