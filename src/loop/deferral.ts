import type { AnyTool } from '../contract/tool.js';
import type { Message, UserMessage } from '../messages/types.js';
import type { ToolPool } from '../pool/tool-pool.js';
import { carriedDiscoveredTools } from './compact-history.js';

/** How a session defers tools: which are deferred, and what the announcement may mention. */
export type DeferralStrategy = {
  isDeferred(tool: AnyTool): boolean;
  /** MCP servers still connecting, named in the announcement so the model knows more may come. */
  pendingServers?(): readonly string[];
  /** The tool that loads deferred schemas. Default `ToolSearch`. */
  readonly searchToolName?: string;
};

/**
 * What one request knows about deferred tools, computed once and shared with ToolSearch: the
 * tools whose schemas are sent, in a stable order; the deferred ones; and, when the deferred set
 * differs from what the history has announced, the announcement to add to the history now.
 */
export type DeferralView = {
  /** Tools sent with full schemas, pool order. */
  readonly loaded: readonly AnyTool[];
  /** Deferred tools the model has loaded, in order of discovery (so `tools[]` only grows at its end). */
  readonly discovered: readonly AnyTool[];
  /** Every deferred tool of the pool, pool order. */
  readonly deferred: readonly AnyTool[];
  /** A user message announcing the change of the deferred set, to be appended to the history. */
  readonly announcement: UserMessage | undefined;
  isSchemaLoaded(tool: AnyTool): boolean;
};

/** Holds the view of the last request so the tools that need it (ToolSearch) read the same one. */
export type DeferralTracker = {
  readonly strategy: DeferralStrategy;
  /** Computes the view for a request over `messages` and keeps it as the current one. */
  view(messages: readonly Message[], pool: ToolPool): DeferralView;
  current(): DeferralView | undefined;
};

export function createDeferralTracker(strategy: DeferralStrategy): DeferralTracker {
  let current: DeferralView | undefined;
  return {
    strategy,
    view(messages, pool) {
      current = viewDeferral(messages, pool, strategy);
      return current;
    },
    current: () => current,
  };
}

/** Computes a request's {@link DeferralView}. Pure. */
export function viewDeferral(messages: readonly Message[], pool: ToolPool, strategy: DeferralStrategy): DeferralView {
  const order = discoveryOrder(messages);
  const loaded: AnyTool[] = [];
  const deferred: AnyTool[] = [];
  const discovered: AnyTool[] = [];
  for (const tool of pool.tools) {
    if (!strategy.isDeferred(tool)) loaded.push(tool);
    else {
      deferred.push(tool);
      if (order.has(tool.name)) discovered.push(tool);
    }
  }
  discovered.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  const deferredNames = new Set(deferred.map((tool) => tool.name));
  const discoveredNames = new Set(discovered.map((tool) => tool.name));
  const text = announcementText(announcedState(messages), {
    names: deferredNames,
    pending: strategy.pendingServers?.() ?? [],
    searchTool: strategy.searchToolName ?? 'ToolSearch',
  });
  return {
    loaded,
    discovered,
    deferred,
    announcement: text === undefined ? undefined : { role: 'user', content: [{ type: 'text', text }] },
    isSchemaLoaded: (tool) => !deferredNames.has(tool.name) || discoveredNames.has(tool.name),
  };
}

/**
 * The names of the deferred tools the model has loaded: every `tool_reference` inside a
 * `tool_result`, and the names a compaction summary carried over, each at the position of its
 * first appearance. Recomputed from the history, so it survives resume and compaction.
 * Discovery is not authorization.
 */
export function discoveryOrder(messages: readonly Message[]): Map<string, number> {
  const order = new Map<string, number>();
  const see = (name: string) => {
    if (!order.has(name)) order.set(name, order.size);
  };
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const name of carriedDiscoveredTools([message])) see(name);
    for (const block of message.content) {
      if (block.type !== 'tool_result' || typeof block.content === 'string') continue;
      for (const item of block.content) if (item.type === 'tool_reference') see(item.tool_name);
    }
  }
  return order;
}

const OPEN = '<deferred-tools>';
const CLOSE = '</deferred-tools>';
const FULL_HEADER = 'The following deferred tools are available.';
const ADDED_HEADER = 'More deferred tools are available';
const REMOVED_HEADER = 'These deferred tools are no longer available:';
const PENDING_PREFIX = 'MCP servers still connecting (their tools are not listed yet): ';
const SETTLED_LINE = 'Every MCP server has finished connecting.';

type Announced = {
  /** Whether any announcement is in the history at all. */
  readonly present: boolean;
  readonly names: ReadonlySet<string>;
  readonly pending: readonly string[];
};

/** Replays the announcements in the history: what the model has been told is deferred. */
export function announcedState(messages: readonly Message[]): Announced {
  let present = false;
  const names = new Set<string>();
  let pending: readonly string[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'text' || !block.text.startsWith(OPEN)) continue;
      present = true;
      pending = [];
      let section: 'add' | 'remove' = 'add';
      for (const line of block.text.slice(OPEN.length, block.text.lastIndexOf(CLOSE)).split('\n')) {
        if (line.startsWith(FULL_HEADER)) names.clear();
        if (line.startsWith(FULL_HEADER) || line.startsWith(ADDED_HEADER)) section = 'add';
        else if (line.startsWith(REMOVED_HEADER)) section = 'remove';
        else if (line.startsWith(PENDING_PREFIX))
          pending = line.slice(PENDING_PREFIX.length).replace(/\.$/, '').split(', ').filter(Boolean);
        else if (line.startsWith('- ')) {
          const name = line.slice(2);
          if (section === 'add') names.add(name);
          else names.delete(name);
        }
      }
    }
  }
  return { present, names, pending };
}

/**
 * The announcement that brings the history's announced state to `target`, or `undefined` when
 * nothing changed: the whole list the first time (and after a compaction dropped it), a delta of
 * added and removed names after that, and the servers still connecting whenever they change.
 */
function announcementText(
  announced: Announced,
  target: { readonly names: ReadonlySet<string>; readonly pending: readonly string[]; readonly searchTool: string },
): string | undefined {
  const pending = [...target.pending].sort();
  const pendingChanged = pending.join('\n') !== [...announced.pending].sort().join('\n');
  const added = [...target.names].filter((name) => !announced.names.has(name)).sort();
  const removed = [...announced.names].filter((name) => !target.names.has(name)).sort();
  if (added.length === 0 && removed.length === 0 && !pendingChanged) return undefined;
  const how = `call ${target.searchTool} to load a tool before calling it (query "select:<name>" for a known name, or keywords to search).`;
  const lines: string[] = [];
  if (!announced.present || announced.names.size === 0) {
    if (added.length > 0) lines.push(`${FULL_HEADER} Their schemas are not loaded: ${how}`, ...bullets(added));
  } else {
    if (added.length > 0) lines.push(`${ADDED_HEADER} (their schemas are not loaded): ${how}`, ...bullets(added));
    if (removed.length > 0) lines.push(REMOVED_HEADER, ...bullets(removed));
  }
  if (pending.length > 0) lines.push(`${PENDING_PREFIX}${pending.join(', ')}.`);
  else if (announced.pending.length > 0) lines.push(SETTLED_LINE);
  if (lines.length === 0) return undefined;
  return `${OPEN}\n${lines.join('\n')}\n${CLOSE}`;
}

function bullets(names: readonly string[]): string[] {
  return names.map((name) => `- ${name}`);
}
