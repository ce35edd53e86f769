import type { ModelProvider, ModelRequest } from '../contract/provider.js';
import type { Message, TextBlock, UserContentBlock } from '../messages/types.js';
import { normalizeMessages } from '../messages/normalize-messages.js';
import { repairPairing } from '../messages/repair-pairing.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { ApiToolCache } from '../schema/to-api-tool.js';
import type { DeferralView } from './deferral.js';

/**
 * Builds one model request: tools from the pool (loaded tools first, in pool order, then the
 * deferred tools the model has discovered, in order of discovery — as `defer_loading` entries
 * where the provider supports `tool_reference`, as full schemas otherwise — so `tools[]` only
 * ever grows at its end), and the history normalized for the provider with its pairing repaired.
 * Nothing is added to the history here: the deferred-tools announcement is part of the history
 * itself (see {@link DeferralView}), so each request is a byte extension of the one before.
 */
export function buildRequest(options: {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system: string | readonly TextBlock[];
  readonly messages: readonly Message[];
  readonly pool: ToolPool;
  /** This request's view of deferred tools; without it every pool tool is loaded. */
  readonly deferral: DeferralView | undefined;
  readonly toolCache: ApiToolCache;
  readonly maxTokens: number;
  /** Prompt-cache breakpoints on the system prompt, the last loaded tool and the last message. Default true. */
  readonly cacheBreakpoints?: boolean;
}): ModelRequest {
  const { deferral, toolCache, provider } = options;
  const loaded = deferral ? deferral.loaded : options.pool.tools;
  const deferLoading = provider.capabilities.toolReference;
  const breakpoints = options.cacheBreakpoints ?? true;
  const loadedDefinitions = loaded.map((tool) => toolCache.toApiTool(tool));
  const lastLoaded = loadedDefinitions[loadedDefinitions.length - 1];
  // The last loaded tool closes the stable prefix; discovered tools come after it and may grow.
  if (breakpoints && lastLoaded && !lastLoaded.cache_control)
    loadedDefinitions[loadedDefinitions.length - 1] = { ...lastLoaded, cache_control: EPHEMERAL };
  const discovered = (deferral?.discovered ?? []).map((tool) => toolCache.toApiTool(tool, { deferLoading }));
  const normalized = normalizeMessages(options.messages, { toolReference: provider.capabilities.toolReference });
  let { messages } = repairPairing(normalized);
  if (breakpoints) messages = markLastBlock(messages);
  const system =
    breakpoints && typeof options.system === 'string' && options.system.length > 0
      ? [{ type: 'text' as const, text: options.system, cache_control: EPHEMERAL }]
      : options.system;
  return {
    model: options.model,
    system,
    messages,
    tools: [...loadedDefinitions, ...discovered],
    toolChoice: { type: 'auto' },
    maxTokens: options.maxTokens,
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
