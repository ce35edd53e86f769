import { describe, expect, it } from 'vitest';
import type { PermissionRuleEntry } from '../../contract/permission.js';
import { privateHostsFromRules } from './private-hosts-from-rules.js';

const rule = (text: string, behavior: PermissionRuleEntry['behavior'] = 'allow'): PermissionRuleEntry => ({
  rule: text,
  behavior,
  source: 'userSettings',
  root: '/',
});

describe('privateHostsFromRules', () => {
  it('keeps only allow rules that name one host or address exactly', () => {
    expect(
      privateHostsFromRules([
        rule('WebFetch(domain:localhost)'),
        rule('WebFetch(domain:127.0.0.1)'),
        rule('WebFetch(domain:[::1])'),
        rule('WebFetch(domain:Intranet.Example.)'),
        rule('WebFetch(domain:localhost)'),
      ]),
    ).toEqual(['localhost', '127.0.0.1', '::1', 'intranet.example']);
  });

  it('never derives a private host from a wildcard, a bare WebFetch, or a deny or ask rule', () => {
    expect(
      privateHostsFromRules([
        rule('WebFetch'),
        rule('WebFetch(domain:*)'),
        rule('WebFetch(domain:*.corp.example)'),
        rule('WebFetch(domain:169.254.*)'),
        rule('WebFetch(domain:)'),
        rule('WebFetch(domain:metadata.internal)', 'deny'),
        rule('WebFetch(domain:localhost)', 'ask'),
        rule('Bash(curl localhost)'),
      ]),
    ).toEqual([]);
  });
});
