import { defineService } from '../../contract/services.js';

/** One search hit. */
export type WebSearchHit = { readonly title: string; readonly url: string; readonly pageAge?: string };

/** What a web search returns: the hits and the model's text written from them. */
export type WebSearchResponse = { readonly hits: readonly WebSearchHit[]; readonly text: string };

/** A provider's server-side web search, as the host exposes it. */
export type WebSearchBackend = {
  search(
    request: {
      readonly query: string;
      readonly allowedDomains?: readonly string[];
      readonly blockedDomains?: readonly string[];
    },
    signal: AbortSignal,
  ): Promise<WebSearchResponse>;
};

/** The host's web search backend; absent when the provider has none. */
export const webSearchService = defineService<WebSearchBackend>('web-search');
