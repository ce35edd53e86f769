import type { ContentBlock, MessageParam, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import { ProviderError, toProviderError } from '../provider-error.js';
import { createAnthropicClient, type AnthropicProviderOptions } from './anthropic-client.js';

/** One page the search found. */
export type AnthropicWebSearchHit = { readonly title: string; readonly url: string; readonly pageAge?: string };

/**
 * Web search through the Messages API's server-side `web_search` tool. Shaped like the host's
 * web search backend service (`search(request, signal)` → hits and the model's text).
 */
export interface AnthropicWebSearch {
  search(
    request: {
      readonly query: string;
      readonly allowedDomains?: readonly string[];
      readonly blockedDomains?: readonly string[];
    },
    signal: AbortSignal,
  ): Promise<{ readonly hits: readonly AnthropicWebSearchHit[]; readonly text: string }>;
}

/** Settings of {@link createAnthropicWebSearch}: the provider's, plus the search's own limits. */
export type AnthropicWebSearchOptions = AnthropicProviderOptions & {
  /** Searches the model may run for one request. Default 8. */
  readonly maxUses?: number;
  /** Output limit of the nested request. Default 4096. */
  readonly maxTokens?: number;
  /** Times a paused search (`pause_turn`) is continued. Default 3. */
  readonly maxContinuations?: number;
};

const NAME = 'anthropic';

/**
 * Creates the web search backend for Anthropic: one nested, non-streamed Messages request with the
 * `web_search_20250305` server tool (domain filters passed through), continued while the API
 * pauses. Retries are the SDK's (rate limits and overload, honouring `retry-after`). Failures,
 * including the search tool's own error codes when nothing was found, throw a `ProviderError`.
 */
export function createAnthropicWebSearch(options: AnthropicWebSearchOptions): AnthropicWebSearch {
  const { client, defaultModel } = createAnthropicClient(options, { sdkRetries: options.retry?.maxRetries ?? 2 });
  return {
    async search(request, signal) {
      const tool: WebSearchTool20250305 = {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: options.maxUses ?? 8,
        ...(request.allowedDomains === undefined ? {} : { allowed_domains: [...request.allowedDomains] }),
        ...(request.blockedDomains === undefined ? {} : { blocked_domains: [...request.blockedDomains] }),
      };
      const messages: MessageParam[] = [
        { role: 'user', content: `Search the web for: ${request.query}\nThen answer briefly from what you found.` },
      ];
      const hits: AnthropicWebSearchHit[] = [];
      const errors: string[] = [];
      const texts: string[] = [];
      for (let round = 0; round <= (options.maxContinuations ?? 3); round += 1) {
        let content: ContentBlock[];
        let stopReason: string | null;
        try {
          const response = await client.messages.create(
            { model: defaultModel, max_tokens: options.maxTokens ?? 4096, messages, tools: [tool] },
            { signal },
          );
          content = response.content;
          stopReason = response.stop_reason;
        } catch (error) {
          throw toProviderError({ provider: NAME, error, signal, streamStarted: false });
        }
        for (const block of content) {
          if (block.type === 'text') texts.push(block.text);
          if (block.type !== 'web_search_tool_result') continue;
          if (Array.isArray(block.content)) {
            for (const hit of block.content) {
              hits.push({ title: hit.title, url: hit.url, ...(hit.page_age ? { pageAge: hit.page_age } : {}) });
            }
          } else errors.push(block.content.error_code);
        }
        if (stopReason !== 'pause_turn') break;
        // A paused turn is continued by sending it back as the assistant's message.
        messages.push({ role: 'assistant', content });
      }
      if (hits.length === 0 && errors.length > 0) {
        throw new ProviderError({
          provider: NAME,
          kind: 'invalid-response',
          message: `web search failed: ${errors.join(', ')}`,
        });
      }
      return { hits, text: texts.join('') };
    },
  };
}
