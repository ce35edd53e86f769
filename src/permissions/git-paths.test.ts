import { beforeAll, expect, test } from 'vitest';
import { initShellParser, parseShell } from './bash-parser.js';
import { gitPaths } from './git-paths.js';

beforeAll(async () => {
  await initShellParser();
});

const paths = (command: string) =>
  gitPaths(parseShell(command, { cwd: '/p', homeDir: '/h' }).commands[0]?.words ?? []).map(
    ({ word, fromTop, pattern }) => `${word.value}${fromTop ? ' (top)' : ''}${pattern ? ' (pattern)' : ''}`,
  );

test.each([
  ['git show HEAD:.env', ['.env (top)']],
  ['git show HEAD:./.env', ['./.env']],
  ['git show :0:.env', ['.env (top)']],
  ['git show :.env', ['.env (top)']],
  ["git log -p -- ':(top).env' ':/x' ':!y' ':(exclude)z'", ['.env (top)', 'x (top)']],
  ["git log -p -- '.en?'", ['.en? (pattern)']],
  ["git --literal-pathspecs log -- '.en?'", ['.en?']],
  ["git log -- ':(literal)*.ts' ':(glob)**/*.ts'", ['*.ts', '**/*.ts (pattern)']],
  ['git grep TOKEN -- .env', ['.env']],
  ['git grep -e TOKEN .env', ['.env']],
  ['git -C sub show HEAD:x', ['x (top)']],
  ['git status .env', []],
  ['git log -n 5 -L 1,5:.env', ['.env']],
] as const)('%s', (command, expected) => {
  expect(paths(command)).toEqual(expected);
});
