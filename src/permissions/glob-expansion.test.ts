import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { escapeGlob, expandPathPattern } from './glob-expansion.js';
import { expandBraces, segmentMatches } from './glob-patterns.js';

const root = mkdtempSync(path.join(tmpdir(), 'toolplane-globs-'));
const home = path.join(root, 'home');
for (const folder of [path.join(root, 'src'), path.join(home, '.ssh')]) mkdirSync(folder, { recursive: true });
for (const file of ['.env', 'README.md', 'src/a.ts', 'src/b.ts', 'home/.ssh/id_rsa', '[x]'])
  writeFileSync(path.join(root, file), '');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const expand = (pattern: string) => {
  const result = expandPathPattern(pattern, { cwd: root, homeDir: home });
  return 'paths' in result ? result.paths.map((found) => path.relative(root, found)).sort() : result;
};

describe('bash pattern segments', () => {
  test.each([
    ['e?viron', 'environ', true],
    ['env*', 'environ', true],
    ['[!a]nv', 'env', true],
    ['[^e]nv', 'env', false],
    ['[[:alpha:]]nv', 'env', true],
    ['\\*', '*', true],
    ['\\*', 'x', false],
    ['[]]x', ']x', true],
  ] as const)('%s against %s', (segment, name, expected) => {
    expect(segmentMatches(segment, name)).toBe(expected);
  });

  test('brace expansion is textual and nests; escaped braces stay', () => {
    expect(expandBraces('.e{n,x}v')).toEqual(['.env', '.exv']);
    expect(expandBraces('a{b,{c,d}}e')).toEqual(['abe', 'ace', 'ade']);
    expect(expandBraces('x{1..3}')).toEqual(['x1', 'x2', 'x3']);
    expect(expandBraces('\\{a,b\\}')).toEqual(['\\{a,b\\}']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
  });
});

describe('expanding a word against the files that exist, as bash does', () => {
  test('globs name the files they match, a leading dot must be literal', () => {
    expect(expand('.en?')).toEqual(['.env']);
    expect(expand('*')).toEqual(['README.md', '[x]', 'home', 'src']);
    expect(expand('src/*.ts')).toEqual(['src/a.ts', 'src/b.ts']);
    expect(expand('~/.ss?/id_rsa')).toEqual(['home/.ssh/id_rsa']);
    expect(expand('.e{n,x}v')).toEqual(['.env', '.exv']);
  });

  test('a word that matches nothing stays as written; quoted specials are literal', () => {
    expect(expand('[.]env')).toEqual(['[.]env']);
    expect(expand('*.env')).toEqual(['*.env']);
    expect(expand(escapeGlob('[x]'))).toEqual(['[x]']);
  });

  test("another user's home folder cannot be known", () => {
    expect(expand('~root/.ss?')).toMatchObject({ unknown: expect.stringContaining('home folder') });
  });
});
