import { describe, expect, test } from 'vitest';
import { patternsIntersect } from './glob-intersection.js';
import { compilePathPattern } from './path-rule.js';

const shell = { starCrossesSlash: false, ignoreCase: false };
const git = { starCrossesSlash: true, ignoreCase: false };

describe('whether two patterns can name the same path', () => {
  test.each([
    ['/p/.en?', shell, '/p/.env', true],
    ['/p/*.ts', shell, '/p/.env', false],
    ['/p/.e*', shell, '/p/.env', true],
    ['/p/*.ts', shell, '/p/x.env', false],
    ['/p/*', shell, '/p/a/b', false],
    ['/p/*', git, '/p/a/b', true],
    ['/p/s*/k', shell, '/p/**/secrets/**', true],
    ['/p/prod.e?v', shell, '/p/**/*.env', true],
    ['/p/[!.]*', shell, '/p/.env', false],
    ['/p/[a-c]x', shell, '/p/bx', true],
    ['/p/\\*', shell, '/p/x', false],
  ] as const)('%s and %s', (a, syntax, b, expected) => {
    expect(patternsIntersect(a, syntax, b, shell)).toBe(expected);
  });
});

describe('a deny rule against a pattern that cannot be expanded', () => {
  const anchors = { root: '/p', cwd: '/p', homeDir: '/h', caseInsensitive: false, behavior: 'deny' as const };
  test.each([
    ['./.env', '/p/.en?', git, true],
    ['./.env', '/p/*.ts', git, false],
    ['.env', '/p/sub/*', git, true],
    // The shell's leading-dot rule is not modelled: a star may name a dotfile here (the safe side).
    ['.env', '/p/sub/*', shell, true],
    ['~/.ssh/**', '/h/.ss?/id_*', shell, true],
    ['secrets/**', '/p/s*', git, true],
    ['*.pem', '/p/keys/[a-z]*.pe?', shell, true],
    ['//etc/shadow', '/etc/sha*', shell, true],
    ['./.env', '/p/.ENV', { starCrossesSlash: false, ignoreCase: false }, true],
  ] as const)('deny Read(%s) may cover %s', (rule, pattern, syntax, expected) => {
    expect(compilePathPattern(rule, anchors).mayMatchPattern(pattern, syntax)).toBe(expected);
  });
});
