import type { ModelProvider, ModelRequest } from '../contract/provider.js';
import type { AnyTool } from '../contract/tool.js';
import type { Message, TextBlock, UserContentBlock } from '../messages/types.js';
import { normalizeMessages } from '../messages/normalize-messages.js';
import { repairPairing } from '../messages/repair-pairing.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { ApiToolCache } from '../schema/to-api-tool.js';
import { carriedDiscoveredTools } from './compact-history.js';
import type { DeferralStrategy } from './types.js';

/** A request and what the plane must know about it. */
export type BuiltRequest = {
  readonly request: ModelRequest;
  /** False for deferred tools whose schema this request does not carry. */
  readonly isSchemaLoaded: (tool: AnyTool) => boolean;
  readonly deferredNames: readonly string[];
};

/**
 * Builds one model request: tools from the pool (deferred tools only once discovered, as
 * `defer_loading` entries where the provider supports `tool_reference`, as full schemas
 * otherwise; loaded tools first, in pool order, so the cached prefix stays stable), the history
 * normalized for the provider and with its pairing repaired, and the deferred tools announced by
 * name at the end of the last user message (never in the cached prefix).
 */
export function buildRequest(options: {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system: string | readonly TextBlock[];
  readonly messages: readonly Message[];
  readonly pool: ToolPool;
  readonly deferral: DeferralStrategy | undefined;
  readonly toolCache: ApiToolCache;
  readonly maxTokens: number;
  /** Prompt-cache breakpoints on the system prompt, the last loaded tool and the last message. Default true. */
  readonly cacheBreakpoints?: boolean;
}): BuiltRequest {
  const { pool, deferral, toolCache, provider } = options;
  const loaded: AnyTool[] = [];
  const discoveredTools: AnyTool[] = [];
  const deferredNames: string[] = [];
  const deferredSet = new Set<string>();
  let discovered: ReadonlySet<string> = new Set();
  if (deferral) {
    const found = new Set(deferral.discovered(options.messages));
    for (const name of carriedDiscoveredTools(options.messages)) found.add(name);
    discovered = found;
  }
  for (const tool of pool.tools) {
    if (deferral?.isDeferred(tool)) {
      deferredSet.add(tool.name);
      if (discovered.has(tool.name)) discoveredTools.push(tool);
      else deferredNames.push(tool.name);
    } else {
      loaded.push(tool);
    }
  }
  const deferLoading = provider.capabilities.toolReference;
  const breakpoints = options.cacheBreakpoints ?? true;
  const loadedDefinitions = loaded.map((tool) => toolCache.toApiTool(tool));
  const lastLoaded = loadedDefinitions[loadedDefinitions.length - 1];
  // The last loaded tool closes the stable prefix; discovered tools come after it and may grow.
  if (breakpoints && lastLoaded && !lastLoaded.cache_control)
    loadedDefinitions[loadedDefinitions.length - 1] = { ...lastLoaded, cache_control: EPHEMERAL };
  const tools = [...loadedDefinitions, ...discoveredTools.map((tool) => toolCache.toApiTool(tool, { deferLoading }))];
  const normalized = normalizeMessages(options.messages, { toolReference: provider.capabilities.toolReference });
  let { messages } = repairPairing(normalized);
  if (deferral && deferredNames.length > 0) messages = announce(messages, deferral.announce(deferredNames));
  if (breakpoints) messages = markLastBlock(messages);
  const system =
    breakpoints && typeof options.system === 'string' && options.system.length > 0
      ? [{ type: 'text' as const, text: options.system, cache_control: EPHEMERAL }]
      : options.system;
  return {
    request: {
      model: options.model,
      system,
      messages,
      tools,
      toolChoice: { type: 'auto' },
      maxTokens: options.maxTokens,
    },
    isSchemaLoaded: (tool) => !deferredSet.has(tool.name) || discovered.has(tool.name),
    deferredNames,
  };
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Puts a cache breakpoint on the last block of the last message (a copy; history is not changed). */
function markLastBlock(messages: Message[]): Message[] {
  const last = messages[messages.length - 1];
  if (!last) return messages;
  if (last.role === 'user') {
    const content: UserContentBlock[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    const block = content[content.length - 1];
    if (!block || (block.type === 'text' && block.text.length === 0)) return messages;
    content[content.length - 1] = { ...block, cache_control: EPHEMERAL } as UserContentBlock;
    return [...messages.slice(0, -1), { role: 'user', content }];
  }
  return messages;
}

function announce(messages: Message[], text: string): Message[] {
  const last = messages[messages.length - 1];
  const note: UserContentBlock = { type: 'text', text };
  if (!last || last.role !== 'user') return [...messages, { role: 'user', content: [note] }];
  const content: UserContentBlock[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }, note] : [...last.content, note];
  return [...messages.slice(0, -1), { role: 'user', content }];
}
