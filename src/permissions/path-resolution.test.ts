import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { absolutePath, isWithin, pathForms, protectedPathReason, resolveRealPath } from './path-resolution.js';

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolplane-paths-')));
  mkdirSync(path.join(root, 'real', 'deep'), { recursive: true });
  writeFileSync(path.join(root, 'real', 'deep', 'file.txt'), 'x');
  symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  symlinkSync('real/deep', path.join(root, 'relative-link'));
  symlinkSync(path.join(root, 'link'), path.join(root, 'chain'));
  symlinkSync(path.join(root, 'nowhere', 'file'), path.join(root, 'dangling'));
  symlinkSync(path.join(root, 'loop2'), path.join(root, 'loop1'));
  symlinkSync(path.join(root, 'loop1'), path.join(root, 'loop2'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveRealPath', () => {
  test('an existing file through a symlinked folder', () => {
    expect(resolveRealPath(path.join(root, 'link', 'deep', 'file.txt'))).toBe(
      path.join(root, 'real', 'deep', 'file.txt'),
    );
  });

  test('a relative symlink', () => {
    expect(resolveRealPath(path.join(root, 'relative-link', 'file.txt'))).toBe(
      path.join(root, 'real', 'deep', 'file.txt'),
    );
  });

  test('a chain of symlinks', () => {
    expect(resolveRealPath(path.join(root, 'chain', 'deep'))).toBe(path.join(root, 'real', 'deep'));
  });

  test('a file that does not exist yet under a symlinked folder', () => {
    expect(resolveRealPath(path.join(root, 'link', 'new', 'file.txt'))).toBe(
      path.join(root, 'real', 'new', 'file.txt'),
    );
  });

  test('a dangling symlink resolves to the text it points at', () => {
    expect(resolveRealPath(path.join(root, 'dangling'))).toBe(path.join(root, 'nowhere', 'file'));
  });

  test('a symlink loop is unknowable', () => {
    expect(resolveRealPath(path.join(root, 'loop1', 'x'))).toBeUndefined();
  });

  test('.. after a symlink follows the target, as the kernel does', () => {
    expect(resolveRealPath(`${root}/relative-link/../missing`)).toBe(path.join(root, 'real', 'missing'));
    expect(pathForms('relative-link/../missing', { baseDir: root, homeDir: root })).toEqual({
      link: path.join(root, 'missing'),
      target: path.join(root, 'real', 'missing'),
    });
  });
});

describe('isWithin', () => {
  test.each([
    ['/a/proj', '/a/proj', true],
    ['/a/proj/src/x', '/a/proj', true],
    ['/a/proj-evil', '/a/proj', false],
    ['/a/projectile', '/a/proj', false],
    ['/a/proj2/x', '/a/proj', false],
    ['/a/proj/../etc', '/a/proj', false],
    ['/a/proj/..foo', '/a/proj', true],
    ['/a', '/a/proj', false],
  ])('%s within %s → %s', (child, parent, expected) => {
    expect(isWithin(child, parent)).toBe(expected);
  });

  test('case-insensitive comparison on request only', () => {
    expect(isWithin('/A/Proj/x', '/a/proj')).toBe(false);
    expect(isWithin('/A/Proj/x', '/a/proj', { caseInsensitive: true })).toBe(true);
  });
});

describe('absolutePath and pathForms', () => {
  test('expands ~ against the home folder and resolves against the base folder', () => {
    expect(absolutePath('~', { baseDir: '/w', homeDir: '/h' })).toBe('/h');
    expect(absolutePath('~/x', { baseDir: '/w', homeDir: '/h' })).toBe('/h/x');
    expect(absolutePath('~other/x', { baseDir: '/w', homeDir: '/h' })).toBe('/w/~other/x');
    expect(absolutePath('a/../b//c/', { baseDir: '/w', homeDir: '/h' })).toBe('/w/b/c');
  });

  test('gives the link and its target', () => {
    expect(pathForms('link/deep', { baseDir: root, homeDir: root })).toEqual({
      link: path.join(root, 'link', 'deep'),
      target: path.join(root, 'real', 'deep'),
    });
  });
});

describe('protectedPathReason', () => {
  test.each([
    ['/p/.git/config', true],
    ['/p/.GIT/hooks/pre-commit', true],
    ['/p/.git./config', true],
    ['/p/.git::$DATA/config', true],
    ['/h/.config/git/config', true],
    ['/p/.claude/settings.json', true],
    ['/p/.claude/worktrees/a/file.ts', false],
    ['/p/.toolplane/settings.local.json', true],
    ['/h/.bashrc', true],
    ['/h/.ZSHRC', true],
    ['/p/.npmrc', true],
    ['/p/.mcp.json', true],
    ['/p/gradle/wrapper/gradle-wrapper.properties', true],
    ['/p/src/git.ts', false],
    ['/p/.github/workflows/ci.yml', true],
    ['/p/.github/ISSUE_TEMPLATE/bug.md', false],
    ['/p/.env', false],
  ])('%s → %s', (file, expected) => {
    expect(protectedPathReason(file) !== undefined).toBe(expected);
  });
});
