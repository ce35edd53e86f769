import { isIPv4, isIPv6 } from 'node:net';

/** What kind of address an IP is, for the decision whether WebFetch may connect to it. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'multicast'
  | 'documentation'
  | 'reserved'
  | 'invalid';

type Range4 = readonly [base: number, prefix: number, kind: AddressClass];

/** Non-public IPv4 ranges (IANA special-purpose registry). */
const IPV4_RANGES: readonly Range4[] = [
  [ipv4ToNumber('0.0.0.0'), 8, 'unspecified'],
  [ipv4ToNumber('10.0.0.0'), 8, 'private'],
  [ipv4ToNumber('100.64.0.0'), 10, 'shared'],
  [ipv4ToNumber('127.0.0.0'), 8, 'loopback'],
  [ipv4ToNumber('169.254.0.0'), 16, 'link-local'],
  [ipv4ToNumber('172.16.0.0'), 12, 'private'],
  [ipv4ToNumber('192.0.0.0'), 24, 'reserved'],
  [ipv4ToNumber('192.0.2.0'), 24, 'documentation'],
  [ipv4ToNumber('192.88.99.0'), 24, 'reserved'],
  [ipv4ToNumber('192.168.0.0'), 16, 'private'],
  [ipv4ToNumber('198.18.0.0'), 15, 'reserved'],
  [ipv4ToNumber('198.51.100.0'), 24, 'documentation'],
  [ipv4ToNumber('203.0.113.0'), 24, 'documentation'],
  [ipv4ToNumber('224.0.0.0'), 4, 'multicast'],
  [ipv4ToNumber('240.0.0.0'), 4, 'reserved'],
];

/**
 * Classifies an IPv4 or IPv6 address (brackets and zone ids are accepted). IPv6 forms that embed
 * an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are classified
 * by the embedded address, so `::ffff:127.0.0.1` is loopback. Only global unicast space
 * (2000::/3 for IPv6) can be public.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return classifyIpv4(ipv4ToNumber(bare));
  if (isIPv6(bare)) {
    const groups = parseIpv6(bare);
    return groups ? classifyIpv6(groups) : 'invalid';
  }
  return 'invalid';
}

/** Whether an address is globally routable: not loopback, private, link-local, shared, … */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/**
 * Whether `hostname` is covered by an allowlist entry: an exact name or IP (case-insensitive,
 * trailing dot ignored), or `*.example.com` for any subdomain (not the apex). A bare `*` covers
 * nothing: reaching loopback or the cloud metadata address takes an entry that names it.
 */
export function isHostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = normalizeHost(hostname);
  return allowed.some((entry) => {
    const pattern = normalizeHost(entry);
    if (pattern === '*' || pattern === '') return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return host === pattern;
  });
}

function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function classifyIpv4(value: number): AddressClass {
  for (const [base, prefix, kind] of IPV4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

function classifyIpv6(groups: readonly number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) >>> 0) + g7;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0) {
    if (g6 === 0 && g7 === 0) return 'unspecified';
    if (g6 === 0 && g7 === 1) return 'loopback';
    // Deprecated IPv4-compatible form.
    return 'reserved';
  }
  if (firstFiveZero && g5 === 0xffff) return classifyIpv4(embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  if (g0 === 0x2002) return classifyIpv4(((g1 << 16) >>> 0) + g2);
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  // RFC 9637: 3fff::/20, a second documentation prefix, inside 2000::/3.
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return 'documentation';
  // Teredo (2001::/32) and ORCHID (2001:10::/28, 2001:20::/28) hide or lack a routable address.
  if (g0 === 0x2001 && (g1 === 0 || (g1 & 0xfff0) === 0x10 || (g1 & 0xfff0) === 0x20)) return 'reserved';
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if ((g0 & 0xe000) === 0x2000) return 'public';
  return 'reserved';
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, part) => ((value << 8) >>> 0) + Number(part), 0) >>> 0;
}

/** Parses an IPv6 address (already validated by `isIPv6`) into eight 16-bit groups. */
function parseIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // Rewrite a dotted IPv4 tail as two hex groups, so one parser handles every form.
    const value = ipv4ToNumber(last);
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  const toGroups = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((group) => group !== '')
          .map((group) => parseInt(group, 16))
      : [];
  const head = toGroups(halves[0]);
  const rest = toGroups(halves[1]);
  const explicit = head.length + rest.length;
  if (halves.length === 1) return explicit === 8 ? head : undefined;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
}
