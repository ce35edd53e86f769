import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../contract/tool.js';
import { fingerprintMcpTool } from './fingerprint-mcp-tool.js';
import type { McpManagerEvent, McpToolIdentity } from './mcp-manager-types.js';
import { isLive, type ServerSlot } from './mcp-server-slot.js';
import { assignMcpToolNames } from './mcp-tool-name.js';

/** What the pool keeps from one build to the next. */
export type McpToolPoolMemory = {
  /** Each model-facing name's last definition fingerprint (seeded with approved ones). */
  readonly fingerprints: Map<string, string>;
  /** Tools built so far by name: an unchanged definition keeps its object, so cached schemas stay valid. */
  readonly builtTools: Map<string, { readonly fingerprint: string; readonly tool: AnyTool }>;
  /** Collisions already reported, by the name the tool was given. */
  readonly reportedCollisions: Set<string>;
};

/**
 * The tools of every live server (servers in slot order, tools in server order), named by
 * `assignMcpToolNames`, and the events the change brings: a tool listed twice by `changedServer`
 * (kept once), a changed definition of a known name, a new name collision. Updates `memory`.
 */
export function buildMcpToolPool(options: {
  readonly slots: Iterable<ServerSlot>;
  readonly changedServer: string;
  readonly memory: McpToolPoolMemory;
  readonly isApproved?: (tool: McpToolIdentity) => boolean;
  readonly buildTool: (server: string, definition: McpToolDefinition, name: string) => AnyTool;
}): { readonly pool: AnyTool[]; readonly events: McpManagerEvent[] } {
  const { memory, changedServer } = options;
  const events: McpManagerEvent[] = [];
  const refs: { server: string; definition: McpToolDefinition }[] = [];
  for (const slot of options.slots) {
    if (!isLive(slot.state)) continue;
    const seen = new Set<string>();
    for (const definition of slot.definitions) {
      if (seen.has(definition.name)) {
        if (slot.entry.name === changedServer)
          events.push({
            type: 'server-warning',
            server: slot.entry.name,
            message: `lists tool "${definition.name}" more than once; the first definition is used`,
          });
        continue;
      }
      seen.add(definition.name);
      refs.push({ server: slot.entry.name, definition });
    }
  }
  const { names, collisions } = assignMcpToolNames(
    refs.map((ref) => ({ server: ref.server, tool: ref.definition.name })),
  );
  const pool: AnyTool[] = [];
  const built = new Map<string, { fingerprint: string; tool: AnyTool }>();
  refs.forEach((ref, index) => {
    const name = names[index] ?? '';
    const fingerprint = fingerprintMcpTool(ref.definition);
    const previous = memory.fingerprints.get(name);
    if (previous !== undefined && previous !== fingerprint) {
      const identity = { name, server: ref.server, tool: ref.definition.name };
      events.push({
        type: 'tool-definition-change',
        ...identity,
        approved: options.isApproved?.(identity) ?? false,
        previousFingerprint: previous,
        fingerprint,
      });
    }
    memory.fingerprints.set(name, fingerprint);
    const cached = memory.builtTools.get(name);
    const reusable =
      cached !== undefined && cached.fingerprint === fingerprint && cached.tool.external?.server === ref.server;
    const tool = reusable ? cached.tool : options.buildTool(ref.server, ref.definition, name);
    built.set(name, { fingerprint, tool });
    pool.push(tool);
  });
  memory.builtTools.clear();
  for (const [name, entry] of built) memory.builtTools.set(name, entry);
  for (const collision of collisions) {
    if (memory.reportedCollisions.has(collision.renamedTo)) continue;
    memory.reportedCollisions.add(collision.renamedTo);
    events.push({ type: 'tool-name-collision', collision });
  }
  return { pool, events };
}
