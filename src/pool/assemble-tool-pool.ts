import type { Services } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import { checkToolServices } from './check-tool-services.js';
import type { DroppedTool, ToolPool } from './tool-pool.js';

/** What goes into a pool. */
export type AssemblePoolOptions = {
  readonly builtins: readonly AnyTool[];
  /** MCP and other external tools. */
  readonly external?: readonly AnyTool[];
  /** True when a blanket deny rule (a bare tool name) removes the tool. */
  readonly isBlanketDenied?: (toolName: string) => boolean;
  /** A per-agent filter (subagents with a restricted tool list); false drops the tool. */
  readonly filter?: (tool: AnyTool) => boolean;
  /** When given, every tool that reaches the pool must find its declared services here. */
  readonly services?: Services;
};

/**
 * Assembles the pool: drops tools a blanket deny removes and tools not enabled, sorts stably
 * (built-ins, then external, each by name), and dedupes by name with built-ins winning.
 * A tool that can never be used this turn never reaches `tools[]`. With `services`, throws
 * `MISSING_SERVICE` when a tool in the pool declares a service the registry lacks.
 */
export function assembleToolPool(options: AssemblePoolOptions): ToolPool {
  const dropped: DroppedTool[] = [];
  const keep = (tool: AnyTool): boolean => {
    if (options.isBlanketDenied?.(tool.name)) {
      dropped.push({ name: tool.name, origin: tool.origin, reason: 'denied' });
      return false;
    }
    let enabled: boolean;
    try {
      enabled = tool.isEnabled();
    } catch {
      enabled = false;
    }
    if (!enabled) {
      dropped.push({ name: tool.name, origin: tool.origin, reason: 'disabled' });
      return false;
    }
    if (options.filter && !options.filter(tool)) {
      dropped.push({ name: tool.name, origin: tool.origin, reason: 'filtered' });
      return false;
    }
    return true;
  };
  const byName = (a: AnyTool, b: AnyTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const builtins = options.builtins.filter(keep).sort(byName);
  const external = (options.external ?? []).filter(keep).sort(byName);

  const tools: AnyTool[] = [];
  const names = new Map<string, AnyTool>();
  for (const tool of [...builtins, ...external]) {
    if (names.has(tool.name)) {
      dropped.push({ name: tool.name, origin: tool.origin, reason: 'duplicate' });
      continue;
    }
    names.set(tool.name, tool);
    tools.push(tool);
  }
  if (options.services) checkToolServices(tools, options.services);
  const aliases = new Map<string, AnyTool>();
  for (const tool of tools) {
    for (const alias of tool.aliases) {
      if (!names.has(alias) && !aliases.has(alias)) aliases.set(alias, tool);
    }
  }
  return {
    tools,
    dropped,
    find: (name) => names.get(name) ?? aliases.get(name),
  };
}
