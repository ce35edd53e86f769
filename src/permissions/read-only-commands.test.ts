import { beforeAll, describe, expect, test } from 'vitest';
import { initShellParser, parseShell } from './bash-parser.js';
import { classifyReadOnly, findRunsCommands } from './read-only-commands.js';

beforeAll(() => initShellParser());

const argv = (command: string) => parseShell(command, { cwd: '/w', homeDir: '/h' }).commands.at(-1)?.words ?? [];
const classify = (command: string) => classifyReadOnly(argv(command));

describe('classifyReadOnly', () => {
  test.each([
    'ls -la src',
    'cat -n a b',
    'head -n 5 a',
    'tail -f log',
    'grep -rn -e x -e y src',
    'rg -g "*.ts" -t ts pattern src',
    'find . -name "*.ts" -type f',
    'fd pattern src',
    'wc -l a',
    "sed -n '1,5p' a",
    'sed -n -e 3p a',
    'sort -k 2 -t , a',
    'uniq a',
    'git status --short',
    'git log --oneline -n 5 -- src',
    'git diff --stat HEAD~1',
    'git branch --show-current',
    'git remote -v',
    'git config --get user.name',
    'git stash list',
    'git --no-pager log',
    'date +%s',
    'command -v node',
    'diff -u a b',
    'echo $HOME',
  ])('%s is read-only', (command) => {
    expect(classify(command)).toMatchObject({ readOnly: true });
  });

  test.each([
    ['', /bare assignment/],
    ['$X a', /not a plain word/],
    ['./ls', /is a path/],
    ['awk 1 a', /not in the built-in/],
    ['find . -delete', /can delete/],
    ['find . -newer $(x)', /could expand/],
    ['git -c a=b log', /can change what git runs/],
    ['git push', /not a read-only git command/],
    ['git log --output=x', /can write/],
    ['git branch -D x', /can create, rename or delete/],
    ['git remote add o u', /changes remotes/],
    ['git remote -x', /changes remotes/],
    ['git config --unset a', /can change configuration/],
    ['git stash pop', /changes the repository/],
    ['git reflog expire', /expire/],
    ['git log $X', /could expand/],
    ['sed s/a/b/ f', /without -n/],
    ["sed -n 'p;w f' a", /only sed -n/],
    ['sed --in-place -n 1p f', /can write/],
    ['sort -o out a', /can write/],
    ['sort --output=out a', /can write/],
    ['sort $X', /could expand/],
    ['rg --pre x y', /can write/],
    ['uniq a b', /with 2 arguments/],
    ['hostname x', /with 1 arguments/],
    ['date 0101', /sets the clock/],
    ['wc --files0-from=list', /can write/],
  ])('%j is not read-only (%s)', (command, reason) => {
    const verdict = command === '' ? classifyReadOnly([]) : classify(command);
    expect(verdict.readOnly).toBe(false);
    if (!verdict.readOnly) expect(verdict.reason).toMatch(reason);
  });

  test('reports the files read and whether the read is recursive', () => {
    const grep = classify('grep -r -f patterns.txt needle src');
    expect(grep.readOnly && grep.reads.map((read) => [read.word.value, read.recursive])).toEqual([
      ['needle', true],
      ['src', true],
      ['patterns.txt', false],
    ]);
    const plain = classify('grep -r needle src');
    expect(plain.readOnly && plain.reads.map((read) => read.word.value)).toEqual(['src']);
    const rg = classify('rg needle');
    expect(rg.readOnly && rg.reads.map((read) => read.word.value)).toEqual(['.']);
    const head = classify('head -n 5 a.txt');
    expect(head.readOnly && head.reads.map((read) => read.word.value)).toEqual(['a.txt']);
    const find = classify('find src lib -name x');
    expect(find.readOnly && find.reads.map((read) => read.word.value)).toEqual(['src', 'lib']);
  });

  test('findRunsCommands spots find actions that need an exact rule', () => {
    expect(findRunsCommands(argv('find . -exec rm {} ;'))).toBe(true);
    expect(findRunsCommands(argv('find . -name x'))).toBe(false);
  });
});
