import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { Tool, ToolCallContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { mapWebFetchResult, type FetchedPage, type WebFetchResult } from './map-web-fetch-result.js';
import { toPageContent } from './page-content.js';
import { WEB_FETCH_PROMPT_APPLIER } from './prompt-applier.js';
import { NonPublicAddressError, requestPage, type ResolveHost } from './request-page.js';
import { WEB_FETCH_PROMPT } from './web-fetch-prompt.js';

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

const MAX_URL_LENGTH = 2_000;

type CacheEntry = { readonly expires: number; readonly result: WebFetchResult };

/**
 * Creates the WebFetch tool: fetches over HTTPS with the address policy of {@link requestPage},
 * follows only same-host redirects, converts the body with {@link toPageContent}, and applies the
 * prompt through the optional {@link WEB_FETCH_PROMPT_APPLIER} service.
 */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<WebFetchInput, WebFetchResult> {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const maxContentChars = options.maxContentChars ?? 100_000;
  const maxRedirects = options.maxRedirects ?? 10;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const cacheTtlMs = options.cacheTtlMs ?? 15 * 60_000;
  const cacheEntries = options.cacheEntries ?? 64;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();

  const remember = (key: string, result: WebFetchResult) => {
    if (cacheTtlMs <= 0) return;
    cache.delete(key);
    cache.set(key, { expires: now() + cacheTtlMs, result });
    for (const oldest of cache.keys()) {
      if (cache.size <= cacheEntries) break;
      cache.delete(oldest);
    }
  };

  const fetchPage = async (requested: URL, signal: AbortSignal): Promise<WebFetchResult> => {
    let url = requested;
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      const response = await requestPage({
        url,
        allowPrivateHosts: options.allowPrivateHosts ?? [],
        ca: options.ca,
        maxBytes,
        userAgent: options.userAgent ?? 'toolplane-webfetch/0.1',
        resolveHost: options.resolveHost,
        signal,
      });
      if (response.location !== undefined) {
        const target = new URL(response.location, url);
        if (!isSameSite(url, target)) {
          return { kind: 'redirect', url: requested.href, location: target.href, status: response.status };
        }
        url = upgrade(target);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        return { kind: 'http-error', url: url.href, status: response.status, statusText: response.statusText };
      }
      const content = toPageContent(response.body, response.contentType);
      if (content.kind === 'binary') {
        return {
          kind: 'binary',
          url: url.href,
          mediaType: content.mediaType,
          bytes: response.body.length,
          truncated: response.truncated,
        };
      }
      const page: FetchedPage = {
        url: url.href,
        mediaType: content.mediaType,
        format: content.format,
        text: content.text.length > maxContentChars ? content.text.slice(0, maxContentChars) : content.text,
        cutBytes: response.truncated ? maxBytes : undefined,
        cutChars: content.text.length > maxContentChars ? content.text.length : undefined,
      };
      return { kind: 'page', page, answer: undefined, applyError: undefined, prompt: '', fromCache: false };
    }
    return {
      kind: 'failed',
      message: `${requested.href} redirected more than ${maxRedirects} times; the page could not be reached.`,
    };
  };

  const applyPrompt = async (
    result: WebFetchResult,
    input: WebFetchInput,
    context: ToolCallContext,
    signal: AbortSignal,
  ) => {
    if (result.kind !== 'page') return result;
    const applier = context.services.get(WEB_FETCH_PROMPT_APPLIER);
    const withPrompt = { ...result, prompt: input.prompt };
    if (!applier || input.prompt.trim() === '') return withPrompt;
    try {
      const answer = await applier.apply({
        url: result.page.url,
        prompt: input.prompt,
        content: result.page.text,
        signal,
      });
      return { ...withPrompt, answer };
    } catch (error) {
      return { ...withPrompt, applyError: describeError(error) };
    }
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
      if (cached && cached.expires > now()) {
        const hit = cached.result.kind === 'page' ? { ...cached.result, fromCache: true } : cached.result;
        return applyPrompt(hit, input, context, signal);
      }
      try {
        const result = await fetchPage(url, signal);
        if (result.kind === 'page' || result.kind === 'binary') remember(url.href, result);
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

function checkUrl(raw: string): string | undefined {
  if (raw.length > MAX_URL_LENGTH)
    return `The URL is ${raw.length} characters long; at most ${MAX_URL_LENGTH} are accepted.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${JSON.stringify(raw)} is not a valid URL. Give a complete URL such as https://example.com/page.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'URLs with a user name or password cannot be fetched. Remove the credentials from the URL.';
  }
  if (url.hostname === '') return 'The URL has no host.';
  return undefined;
}

function upgrade(url: URL): URL {
  if (url.protocol !== 'http:') return url;
  const upgraded = new URL(url.href);
  upgraded.protocol = 'https:';
  return upgraded;
}

/** Same host, allowing a `www.` prefix to come or go; a credentialed target never counts. */
function isSameSite(from: URL, to: URL): boolean {
  if (to.username !== '' || to.password !== '') return false;
  if (to.protocol !== 'https:' && to.protocol !== 'http:') return false;
  const strip = (host: string) => host.toLowerCase().replace(/^www\./, '');
  const port = (url: URL) => (url.port === '' || (url.protocol === 'http:' && url.port === '80') ? '' : url.port);
  return strip(from.hostname) === strip(to.hostname) && port(from) === port(upgrade(to));
}

function describeFetchError(error: unknown, url: URL, context: { aborted: boolean; timeoutMs: number }): string {
  if (error instanceof NonPublicAddressError) {
    return (
      `Refused to fetch ${url.href}: ${error.message}. WebFetch only connects to public addresses; ` +
      'the person can allow an internal host in the session settings.'
    );
  }
  if (context.aborted) return `The fetch of ${url.href} was cancelled.`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ABORT_ERR') {
    return `The fetch of ${url.href} timed out after ${context.timeoutMs} ms. The site may be slow or down; try again later or another source.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') {
    return `The host ${url.hostname} could not be resolved. Check the spelling of the URL.`;
  }
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return `Could not connect to ${url.host} (${code}). The site may be down or not serve HTTPS.`;
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) {
    return `${url.host} did not complete an HTTPS handshake (${code}); it may not serve HTTPS on this port.`;
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return `The TLS certificate of ${url.host} could not be verified (${code}); the page was not fetched.`;
  }
  return `Could not fetch ${url.href}: ${describeError(error)}.`;
}
