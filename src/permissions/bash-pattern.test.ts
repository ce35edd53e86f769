import { describe, expect, test } from 'vitest';
import { compileBashPattern } from './bash-pattern.js';
import { compileDomainPattern, hostnameOf, normalizeHostname } from './domain-pattern.js';

describe('compileBashPattern', () => {
  test.each([
    ['ls *', 'ls -la', true],
    ['ls *', 'ls', true],
    ['ls *', 'lsof', false],
    ['ls*', 'lsof', true],
    ['git * main', 'git push origin main', true],
    ['git * main', 'git push origin main2', false],
    ['git:* push', 'git push', false],
    ['git:* push', 'git:x push', true],
    ['npm test:*', 'npm test', true],
    ['npm test:*', 'npm tests', false],
    // `:*` lets the last word go on after a colon (npm's script names), never after a letter.
    ['npm run test:*', 'npm run test:unit', true],
    ['npm run test:*', 'npm run test -- --watch', true],
    ['npm run test:*', 'npm run testx', false],
    ['npm run test:*', 'npm run test2:unit', false],
    ['git diff:*', 'git difftool -x ./evil.sh', false],
    ['git diff:*', 'git diff-tree HEAD', false],
    ['npm run test *', 'npm run test:unit', false],
    ['npm run test :*', 'npm run test:unit', false],
    ['git:*', 'git:x', false],
    ['echo \\*', 'echo *', true],
    ['echo \\*', 'echo x', false],
    ['rm  -rf   *', 'rm -rf x', true],
  ])('%j against %j → %s', (pattern, command, expected) => {
    expect(compileBashPattern(pattern).test(command)).toBe(expected);
  });

  test('reports exactness and the literal prefix', () => {
    expect(compileBashPattern('find . -delete')).toMatchObject({ exact: true, prefix: 'find . -delete' });
    expect(compileBashPattern('npm run test:*')).toMatchObject({ exact: false, prefix: 'npm run test' });
    expect(compileBashPattern('git * main')).toMatchObject({ exact: false, prefix: 'git' });
  });
});

describe('domain patterns', () => {
  test.each([
    ['example.com', 'example.com', true],
    ['example.com', 'EXAMPLE.COM.', true],
    ['example.com', 'a.example.com', false],
    ['*.example.com', 'a.b.example.com', true],
    ['*.example.com', 'example.com', false],
    ['example.*', 'example.org', true],
    ['example.*', 'example.evil.com', false],
    ['*', 'anything.test', true],
    ['ex*le.com', 'example.com', true],
    ['ex*le.com', 'ex.le.com', false],
  ])('%j against %j → %s', (pattern, host, expected) => {
    expect(compileDomainPattern(pattern).test(host)).toBe(expected);
  });

  test('hostnames come only from http(s) URLs', () => {
    expect(hostnameOf('https://user@Example.COM./x')).toBe('example.com');
    expect(hostnameOf('ftp://example.com/')).toBeUndefined();
    expect(hostnameOf('not a url')).toBeUndefined();
    expect(hostnameOf(42)).toBeUndefined();
    expect(normalizeHostname('[::1]')).toBe('::1');
  });
});
