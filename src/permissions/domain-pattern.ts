/**
 * `WebFetch(domain:…)` specifiers. Hostnames compare case-insensitively without a trailing dot.
 * `*.example.com` matches subdomains at any depth but not the apex; `*` alone matches every host;
 * any other `*` matches within one label only (`example.*` matches `example.org`, not
 * `example.evil.com`).
 */

/** A compiled domain specifier. */
export type DomainPattern = {
  readonly text: string;
  test(hostname: string): boolean;
};

/** Lower-cases a hostname and drops a trailing dot, as domain rules compare them. */
export function normalizeHostname(hostname: string): string {
  const lower = hostname.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

function labelSource(label: string): string {
  return label
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[^.]*');
}

/** Compiles the text after `domain:`. */
export function compileDomainPattern(text: string): DomainPattern {
  const domain = normalizeHostname(text.trim());
  if (domain === '*' || domain === '') return { text: domain, test: () => true };
  let source: string;
  if (domain.startsWith('*.')) {
    const rest = domain.slice(2).split('.').map(labelSource).join('\\.');
    source = `^(?:[^.]+\\.)+${rest}$`;
  } else {
    source = `^${domain.split('.').map(labelSource).join('\\.')}$`;
  }
  const regex = new RegExp(source);
  return { text: domain, test: (hostname) => regex.test(normalizeHostname(hostname)) };
}

/** The hostname of a URL the model supplied, or undefined when it is not an http(s) URL. */
export function hostnameOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return normalizeHostname(parsed.hostname);
}
