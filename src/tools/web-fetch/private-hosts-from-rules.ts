import type { PermissionRuleEntry } from '../../contract/permission.js';

const DOMAIN_RULE = /^WebFetch\(\s*domain:([^)]*)\)$/;

/**
 * The hosts WebFetch may reach at non-public addresses (loopback, private, link-local, …), from
 * the allow rules: only `WebFetch(domain:HOST)` rules that name one host or address exactly. A
 * bare `WebFetch` allow, `WebFetch(domain:*)` or any other pattern with `*` approves fetching
 * but never reaches inside the network: a page could point the model at `localhost` or
 * `169.254.169.254`, and a public name can resolve to a private address.
 */
export function privateHostsFromRules(rules: readonly PermissionRuleEntry[]): readonly string[] {
  const hosts = new Set<string>();
  for (const entry of rules) {
    if (entry.behavior !== 'allow') continue;
    const match = DOMAIN_RULE.exec(entry.rule.trim());
    const host = match?.[1]
      ?.trim()
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^\[|\]$/g, '');
    if (host === undefined || host === '' || host.includes('*')) continue;
    hosts.add(host);
  }
  return [...hosts];
}
