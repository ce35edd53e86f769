import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compilePathPattern } from './path-rule.js';

const anchors = { root: '/settings-root', cwd: '/work/proj', homeDir: '/home/u', caseInsensitive: false };
const compile = (pattern: string, behavior: 'allow' | 'deny' | 'ask' = 'deny') =>
  compilePathPattern(pattern, { ...anchors, behavior });

describe('compilePathPattern', () => {
  test.each([
    ['//etc/**', '/etc/passwd', true],
    ['///etc/**', '/etc/passwd', true],
    ['~/.ssh/**', '/home/u/.ssh/id_rsa', true],
    ['~/.ssh/**', '/work/proj/.ssh/id_rsa', false],
    ['~', '/home/u/anything', true],
    ['/secrets/**', '/settings-root/secrets/a', true],
    ['/secrets/**', '/work/proj/secrets/a', false],
    ['./src/**', '/work/proj/src/a.ts', true],
    ['./src/**', '/work/proj/lib/src/a.ts', false],
    ['.env', '/work/proj/a/b/.env', true],
    ['.env', '/elsewhere/.env', false],
    ['*.pem', '/work/proj/keys/x.pem', true],
    ['secrets/**', '/work/proj/deep/secrets/k', true],
    ['secrets/', '/work/proj/deep/secrets/k', true],
    ['src/components/**', '/work/proj/src/components/x', true],
    ['src/components/**', '/work/proj/a/src/components/x', false],
    ['**/src/**', '/work/proj/a/src/x', true],
  ])('deny %s covers %s → %s', (pattern, file, expected) => {
    expect(compile(pattern).matches(file)).toBe(expected);
  });

  test('allow keeps single-segment folder patterns anchored to the working folder', () => {
    expect(compile('src/**', 'allow').matches('/work/proj/src/a.ts')).toBe(true);
    expect(compile('src/**', 'allow').matches('/work/proj/lib/src/a.ts')).toBe(false);
  });

  test('deny ignores case; allow respects it unless the file system ignores case', () => {
    expect(compile('.env').matches('/work/proj/.ENV')).toBe(true);
    expect(compile('.env', 'allow').matches('/work/proj/.ENV')).toBe(false);
    expect(
      compilePathPattern('.env', { ...anchors, caseInsensitive: true, behavior: 'allow' }).matches('/work/proj/.ENV'),
    ).toBe(true);
  });

  test('the anchor folder itself is not matched by a pattern below it', () => {
    expect(compile('./**').matches('/work/proj')).toBe(false);
  });

  test.each([
    ['.env', '/work/proj', true],
    ['.env', '/work/proj/src', true],
    ['./secrets/**', '/work/proj', true],
    ['./secrets/**', '/work/proj/src', false],
    ['./secrets/**', '/work/proj/secrets/sub', true],
    ['~/.ssh/**', '/work/proj', false],
    ['~/.ssh/**', '/home', true],
    ['//etc/ssl/**', '/etc', true],
  ])('%s may match under %s → %s', (pattern, folder, expected) => {
    expect(compile(pattern).mayMatchUnder(folder)).toBe(expected);
  });
});

describe('symlinked anchors', () => {
  test('a rule anchored in a symlinked folder covers the resolved spelling too', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolplane-anchor-')));
    try {
      mkdirSync(path.join(root, 'real', 'src'), { recursive: true });
      symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
      const rule = compilePathPattern('src/**', {
        root: path.join(root, 'link'),
        cwd: path.join(root, 'link'),
        homeDir: root,
        caseInsensitive: false,
        behavior: 'allow',
      });
      expect(rule.matches(path.join(root, 'link', 'src', 'a.ts'))).toBe(true);
      expect(rule.matches(path.join(root, 'real', 'src', 'a.ts'))).toBe(true);
      expect(rule.matches(path.join(root, 'other', 'src', 'a.ts'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
