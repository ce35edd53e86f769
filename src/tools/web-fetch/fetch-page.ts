import type { FetchedPage, WebFetchResult } from './map-web-fetch-result.js';
import { toPageContent } from './page-content.js';
import { requestPage, type ResolveHost } from './request-page.js';
import { isSameSite, upgrade } from './web-fetch-url.js';

/** The limits and network settings of one fetch. */
export type FetchPageOptions = {
  readonly allowPrivateHosts: readonly string[];
  readonly ca: string | readonly string[] | undefined;
  readonly maxBytes: number;
  readonly maxContentChars: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  readonly resolveHost: ResolveHost | undefined;
};

/**
 * Fetches `requested` with the address policy of {@link requestPage}, following same-host
 * redirects (a redirect elsewhere is returned for the model to follow), and converts the body:
 * a page (text cut at `maxContentChars`), a binary, an HTTP error, or a failure after too many
 * redirects. Network errors are thrown.
 */
export async function fetchPage(
  requested: URL,
  signal: AbortSignal,
  options: FetchPageOptions,
): Promise<WebFetchResult> {
  const { maxBytes, maxContentChars, maxRedirects } = options;
  let url = requested;
  for (let hop = 0; hop <= maxRedirects; hop += 1) {
    const response = await requestPage({
      url,
      allowPrivateHosts: options.allowPrivateHosts,
      ca: options.ca,
      maxBytes,
      userAgent: options.userAgent,
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
}
