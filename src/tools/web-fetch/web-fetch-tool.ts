import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { Tool } from '../../contract/tool.js';
import { applyPrompt } from './apply-prompt.js';
import { describeFetchError } from './describe-fetch-error.js';
import { fetchPage, type FetchPageOptions } from './fetch-page.js';
import { mapWebFetchResult, type WebFetchResult } from './map-web-fetch-result.js';
import { createPageCache } from './page-cache.js';
import type { ResolveHost } from './request-page.js';
import { WEB_FETCH_PROMPT_APPLIER } from './prompt-applier.js';
import { WEB_FETCH_PROMPT } from './web-fetch-prompt.js';
import { checkUrl, upgrade } from './web-fetch-url.js';

/** The WebFetch tool's input, with the reference system's names. */
export const webFetchInputSchema = z.strictObject({
  url: z.string().describe('The URL to fetch (http is upgraded to https).'),
  prompt: z.string().describe('What to extract from or answer about the page.'),
});

/** A parsed WebFetch input. */
export type WebFetchInput = z.infer<typeof webFetchInputSchema>;

/** Options for {@link createWebFetchTool}. */
export type WebFetchToolOptions = {
  /**
   * Hosts that may resolve to loopback, private, link-local or other non-public addresses
   * (`localhost`, `127.0.0.1`, `*.corp.example`); a bare `*` covers nothing. The command fills it
   * from allow rules that name one host exactly (`privateHostsFromRules`). Default: none.
   */
  readonly allowPrivateHosts?: readonly string[];
  /** Extra trusted certificate authorities (PEM), added to Node's bundled roots. */
  readonly ca?: string | readonly string[];
  /** Largest body read, after decompression, in bytes. Default 10 MiB. */
  readonly maxBytes?: number;
  /** Largest text handed on (to the model or the prompt applier), in characters. Default 100,000. */
  readonly maxContentChars?: number;
  /** Same-host redirects followed at most. Default 10. */
  readonly maxRedirects?: number;
  /** Time limit of one fetch, redirects included, in ms. Default 60,000. */
  readonly timeoutMs?: number;
  /** How long a fetched page is reused, in ms; 0 disables the cache. Default 15 minutes. */
  readonly cacheTtlMs?: number;
  /** Pages kept in the cache at most. Default 64. */
  readonly cacheEntries?: number;
  readonly userAgent?: string;
  /** Resolves host names (all addresses). Default: the system resolver. */
  readonly resolveHost?: ResolveHost;
  /** The clock for cache expiry (epoch ms). */
  readonly now?: () => number;
};

/**
 * Creates the WebFetch tool: fetches over HTTPS with the address policy of {@link requestPage},
 * follows only same-host redirects, converts the body with {@link toPageContent}, and applies the
 * prompt through the optional {@link WEB_FETCH_PROMPT_APPLIER} service.
 */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<WebFetchInput, WebFetchResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = createPageCache({ ttlMs: options.cacheTtlMs ?? 15 * 60_000, entries: options.cacheEntries ?? 64, now });
  const fetching: FetchPageOptions = {
    allowPrivateHosts: options.allowPrivateHosts ?? [],
    ca: options.ca,
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
    maxContentChars: options.maxContentChars ?? 100_000,
    maxRedirects: options.maxRedirects ?? 10,
    userAgent: options.userAgent ?? 'toolplane-webfetch/0.1',
    resolveHost: options.resolveHost,
  };

  return defineBuiltinTool<WebFetchInput, WebFetchResult>('WebFetch', {
    name: 'WebFetch',
    optionalServices: [WEB_FETCH_PROMPT_APPLIER],
    inputSchema: webFetchInputSchema,
    prompt: WEB_FETCH_PROMPT,
    searchHint: 'fetch web page url http documentation read website',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    validateInput(input) {
      const problem = checkUrl(input.url);
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    async call(input, context) {
      const problem = checkUrl(input.url);
      if (problem) return { kind: 'failed', message: problem };
      const url = upgrade(new URL(input.url));
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      const cached = cache.get(url.href);
      if (cached) {
        const hit = cached.kind === 'page' ? { ...cached, fromCache: true } : cached;
        return applyPrompt(hit, input, context, signal);
      }
      try {
        const result = await fetchPage(url, signal, fetching);
        if (result.kind === 'page' || result.kind === 'binary') cache.remember(url.href, result);
        return await applyPrompt(result, input, context, signal);
      } catch (error) {
        return {
          kind: 'failed',
          message: describeFetchError(error, url, { aborted: context.signal.aborted, timeoutMs }),
        };
      }
    },
    mapResult: mapWebFetchResult,
    describeInput: (input) => input.url,
  });
}
