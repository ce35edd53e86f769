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
    for (const secret of ['SECRET1', 'c2VjcmV0', 'SECRET2', 'SECRET3', 'SECRET4', 'private.pem'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('registry=https://registry.example.com/');
    expect(redacted).toContain('nodedir=/usr');
    expect(redacted).toContain('email=me@example.com');
    expect(redacted.split('\n')).toHaveLength(9);
  });

  it('removes yarn credentials in every YAML form: npmAuthIdent, a block scalar, a flow mapping', () => {
    const yarnrc = [
      'npmRegistryServer: "https://registry.example.com"',
      'npmAuthIdent: "me:SECRET1"',
      'npmAuthToken: >-',
      '  SECRET2',
      '',
      '  SECRET3',
      'npmScopes: { corp: { npmAuthToken: "SECRET4" } }',
      'npmScopes:',
      '  corp:',
      '    npmAuthToken: |',
      '      SECRET5',
      '    npmRegistryServer: "https://corp.example.com"',
      'enableTelemetry: false',
    ].join('\n');
    const redacted = redactConfigText(yarnrc);
    for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4', 'SECRET5'])
      expect(redacted).not.toContain(secret);
    for (const kept of [
      'npmRegistryServer: "https://registry.example.com"',
      '  corp:',
      '    npmRegistryServer: "https://corp.example.com"',
      'enableTelemetry: false',
    ]) {
      expect(redacted).toContain(kept);
    }
  });

  it("removes npm's inline client key, also per registry, and keeps its certificate", () => {
    const npmrc = [
      'key="-----BEGIN PRIVATE KEY-----\\nSECRET1\\n-----END PRIVATE KEY-----"',
      '//r.example.com/:key=SECRET2',
      'cert="-----BEGIN CERTIFICATE-----"',
      'keep-alive=true',
    ].join('\n');
    const redacted = redactConfigText(npmrc);
    expect(redacted).not.toContain('SECRET1');
    expect(redacted).not.toContain('SECRET2');
    expect(redacted).toContain('cert="-----BEGIN CERTIFICATE-----"');
    expect(redacted).toContain('keep-alive=true');
  });
});
