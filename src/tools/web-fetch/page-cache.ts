import type { WebFetchResult } from './map-web-fetch-result.js';

type CacheEntry = { readonly expires: number; readonly result: WebFetchResult };

/**
 * WebFetch's cache of fetched results by URL: each kept for `ttlMs` (0 keeps nothing), at most
 * `entries` of them, the least recently stored dropped first.
 */
export function createPageCache(options: {
  readonly ttlMs: number;
  readonly entries: number;
  readonly now: () => number;
}) {
  const cache = new Map<string, CacheEntry>();
  return {
    /** The result for `key` if it has not expired. */
    get(key: string): WebFetchResult | undefined {
      const cached = cache.get(key);
      return cached && cached.expires > options.now() ? cached.result : undefined;
    },
    remember(key: string, result: WebFetchResult): void {
      if (options.ttlMs <= 0) return;
      cache.delete(key);
      cache.set(key, { expires: options.now() + options.ttlMs, result });
      for (const oldest of cache.keys()) {
        if (cache.size <= options.entries) break;
        cache.delete(oldest);
      }
    },
  };
}
