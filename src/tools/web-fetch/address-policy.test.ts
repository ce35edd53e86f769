import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, isHostAllowed, isPublicAddress } from './address-policy.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.5', 'documentation'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['fd00::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['3fff:fff:ffff::1', 'documentation'],
    ['3fff:1000::1', 'public'],
    ['3ffe:ffff::1', 'public'],
    ['2001::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['1:2:3:4:5:6:7:8', 'reserved'],
    ['2a00:1450:4001:82a::200e', 'public'],
    ['not-an-ip', 'invalid'],
  ] as const)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('only calls public addresses public', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('::ffff:192.168.0.1')).toBe(false);
  });
});

describe('isHostAllowed', () => {
  it('matches exact names, IPs and subdomain wildcards, ignoring case and a trailing dot', () => {
    expect(isHostAllowed('LocalHost.', ['localhost'])).toBe(true);
    expect(isHostAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isHostAllowed('[::1]', ['::1'])).toBe(true);
    expect(isHostAllowed('api.internal.example', ['*.example'])).toBe(true);
    expect(isHostAllowed('example', ['*.example'])).toBe(false);
    expect(isHostAllowed('evil-example', ['*.example'])).toBe(false);
    expect(isHostAllowed('localhost.evil.com', ['localhost'])).toBe(false);
    expect(isHostAllowed('anything', [])).toBe(false);
    expect(isHostAllowed('127.0.0.1', ['*'])).toBe(false);
    expect(isHostAllowed('localhost', [' * ', ''])).toBe(false);
  });
});

describe('classifyAddress properties', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));
  const toHexPair = (v4: string) => {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  };

  it('classifies every IPv6 form that embeds an IPv4 address like the address itself', () => {
    fc.assert(
      fc.property(ipv4, (v4) => {
        const expected = classifyAddress(v4);
        expect(classifyAddress(`::ffff:${v4}`)).toBe(expected);
        expect(classifyAddress(`::ffff:${toHexPair(v4)}`)).toBe(expected);
        expect(classifyAddress(`[::FFFF:${v4}]`)).toBe(expected);
        expect(classifyAddress(`64:ff9b::${v4}`)).toBe(expected);
        expect(classifyAddress(`2002:${toHexPair(v4)}::1`)).toBe(expected);
      }),
    );
  });

  it('never calls an address public unless it is global unicast', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const address = groups.join(':');
        const first = parseInt(groups[0] ?? '0', 16);
        if (classifyAddress(address) === 'public') expect(first & 0xe000).toBe(0x2000);
      }),
    );
  });
});
