import { beforeAll, describe, expect, test } from 'vitest';
import { initShellParser, parseShell } from './bash-parser.js';
import { criticalTargetReason } from './critical-paths.js';

beforeAll(() => initShellParser());

const scope = { cwds: ['/w/proj'], sessionCwd: '/w/proj', homeDir: '/home/u', additionalDirectories: ['/data/extra'] };
const word = (text: string) => {
  const found = parseShell(`rm ${text}`, { cwd: '/w/proj', homeDir: '/home/u' }).commands.at(-1)?.words[1];
  if (!found) throw new Error(text);
  return found;
};

describe('criticalTargetReason', () => {
  test.each([
    '/',
    '/*',
    '/usr',
    '/etc/',
    '~',
    '~/',
    '/home/u',
    '/home',
    '.',
    '..',
    '/w',
    '*',
    './*',
    '/data/extra',
    '/data/extra/*',
    '"$VAR"/*',
    '$HOME',
    '"$(x)"',
    "''",
    '"$DIR/build"',
  ])('%s is critical', (text) => {
    expect(criticalTargetReason(word(text), scope)).toBeDefined();
  });

  test.each(['build', 'src/*.o', '/w/proj/dist', '/data/extra/cache', '~/tmp/x', 'build/"$NAME"', '/usr/local/lib/x'])(
    '%s is not critical',
    (text) => {
      expect(criticalTargetReason(word(text), scope)).toBeUndefined();
    },
  );

  test('a relative target after an unknown cd is critical', () => {
    expect(criticalTargetReason(word('build'), { ...scope, cwds: undefined })).toMatch(/cannot be determined/);
  });
});
