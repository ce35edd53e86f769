import { describe, expect, it } from 'vitest';
import { redactConfigText } from './redact-config.js';

describe('redactConfigText', () => {
  it('removes credentials from npm, yarn and pip configuration and keeps the rest', () => {
    const npmrc = [
      'registry=https://registry.example.com/',
      '//registry.example.com/:_authToken=npm_SECRET1',
      '_auth=c2VjcmV0',
      '//r.example.com/:_password=SECRET2',
      'nodedir=/usr',
      'email=me@example.com',
      'npmAuthToken: "SECRET3"',
      'index-url = https://user:SECRET4@pypi.example.com/simple',
      'cafile=/etc/ssl/private.pem',
    ].join('\n');
    const redacted = redactConfigText(npmrc);
    for (const secret of ['SECRET1', 'c2VjcmV0', 'SECRET2', 'SECRET3', 'SECRET4', 'private.pem']) expect(redacted).not.toContain(secret);
    expect(redacted).toContain('registry=https://registry.example.com/');
    expect(redacted).toContain('nodedir=/usr');
    expect(redacted).toContain('email=me@example.com');
    expect(redacted.split('\n')).toHaveLength(9);
  });
});
