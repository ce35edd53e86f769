import { DATA_PATH_OPTIONS } from '../data-path-options.js';
import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 3: files a program reads or writes that are not plain operands (option values,
 * response files, lists and stdin, sed and awk scripts, git object names and pathspecs), checked
 * against Read and Edit rules and the working folders, or a concern when they cannot be known.
 * One attack and one look-alike per entry of data-path-options.ts (generated), then git's forms.
 */

const denies = ['deny Read(./.env)', 'deny Read(~/.ssh/**)'];

const fromTable: readonly CorpusCase[] = DATA_PATH_OPTIONS.flatMap((entry, index) => {
  const id = `C3.${String(index + 1).padStart(2, '0')}`;
  const rules = [
    ...denies,
    `allow ${entry.example.rule}`,
    ...(entry.example.extraRules ?? []).map((rule) => `allow ${rule}`),
  ];
  const where =
    entry.trigger.kind === 'option' || entry.trigger.kind === 'flag'
      ? entry.trigger.names.join(' ')
      : entry.trigger.kind;
  return [
    bash(
      `${id} ${entry.program.join('/')} ${where}: ${entry.what} (${entry.source})`,
      entry.example.attack,
      entry.example.expect,
      { rules },
    ),
    bash(`${id} look-alike: ${entry.example.lookAlike}`, entry.example.lookAlike, 'allow', { rules }),
  ];
});

const gitShow = [...denies, 'allow Bash(git show:*)'];

export const dataPathCases: readonly CorpusCase[] = [
  ...fromTable,
  bash('C3.g1 a stage object name', 'git show :0:.env', 'deny', { rules: denies }),
  bash('C3.g2 an index object name', 'git show :.env', 'deny', { rules: denies }),
  bash('C3.g3 a path relative to the current folder in an object name', 'git show HEAD:./.env', 'deny', {
    rules: denies,
  }),
  bash('C3.g4 a top pathspec', "git log -p -- ':(top).env'", 'deny', { rules: denies }),
  bash('C3.g5 a short top pathspec', "git log -p -- ':/.env'", 'deny', { rules: denies }),
  bash('C3.g6 a pathspec pattern git expands over history', "git log -p -- '.en?'", 'ask', { rules: denies }),
  bash('C3.g6 look-alike: a pattern that cannot name the denied file', "git log -p -- '*.ts'", 'allow', {
    rules: denies,
  }),
  bash('C3.g7 look-alike: an excluded pathspec', "git log -p -- ':!.env'", 'allow', { rules: denies }),
  bash('C3.g8 a pattern in a folder git matches across slashes', "git log -p -- 'sec*'", 'ask', {
    rules: ['deny Read(secrets/**)'],
  }),
  bash('C3.g9 git archive packs a denied file', 'git archive HEAD .env', 'deny', {
    rules: [...denies, 'allow Bash(git archive:*)'],
  }),
  bash('C3.g9 look-alike: git archive of the source folder', 'git archive HEAD src', 'allow', {
    rules: [...denies, 'allow Bash(git archive:*)'],
  }),
  bash('C3.g10 git grep in a denied file', 'git grep TOKEN -- .env', 'deny', { rules: denies }),
  bash('C3.g10 look-alike: a grep pattern that looks like the file name', 'git grep .env', 'allow', { rules: denies }),
  bash('C3.g11 an object path is relative to the top folder, wherever the shell is', 'git show HEAD:.env', 'deny', {
    rules: gitShow,
    shellCwd: '{cwd}/src',
  }),
  bash('C3.x1 xargs hands cat names from input', 'echo .env | xargs cat', 'ask', {
    rules: [...denies, 'allow Bash(cat:*)', 'allow Bash(echo:*)'],
  }),
  bash('C3.x1 look-alike: the same with no deny rule', 'echo README.md | xargs cat', 'allow', {
    rules: ['allow Bash(cat:*)', 'allow Bash(echo:*)'],
  }),
  bash('C3.s1 sed reads a file into its output', "sed -n 'r .env' README.md", 'deny', {
    rules: [...denies, 'allow Bash(sed -n:*)'],
  }),
  bash('C3.s2 sed writes a protected file', "sed -n 'w .bashrc' README.md", 'ask', {
    rules: [...denies, 'allow Bash(sed -n:*)'],
  }),
  bash('C3.s2 look-alike: sed writes inside the project', "sed -n 'w out.txt' README.md", 'allow', {
    rules: [...denies, 'allow Bash(sed -n:*)'],
  }),
  bash('C3.s3 s///w', "sed -n 's/a/b/w .env' README.md", 'deny', { rules: [...denies, 'allow Bash(sed -n:*)'] }),
  bash('C3.a1 awk getline from a denied file', `awk -F, 'BEGIN{while((getline l < ".env") > 0) print l}'`, 'deny', {
    rules: [...denies, 'allow Bash(awk -F, *)'],
  }),
  bash('C3.a2 awk prints into a protected file', `awk -F, '{print > ".bashrc"}' README.md`, 'ask', {
    rules: [...denies, 'allow Bash(awk -F, *)'],
  }),
  bash('C3.a2 look-alike: awk prints into a project file', `awk -F, '{print > "out.txt"}' README.md`, 'allow', {
    rules: [...denies, 'allow Bash(awk -F, *)'],
  }),
  bash('C3.a3 awk prints into a file its program computes', `awk -F, '{print > $1}' README.md`, 'ask', {
    rules: [...denies, 'allow Bash(awk -F, *)'],
  }),
  bash(
    'C3.o1 an option read outside the working folders asks even under the rule',
    'git commit -F {outside}/file.txt',
    'ask',
    { rules: ['allow Bash(git commit:*)'] },
  ),
  bash(
    'C3.o2 an option write outside the working folders asks even under the rule',
    'sort -o {outside}/x README.md',
    'ask',
    { rules: ['allow Bash(sort:*)'] },
  ),
  bash('C3.o3 behind sudo, the innermost command is checked too', 'sudo tar xf a.tar -C ~/.ssh', 'deny', {
    rules: denies,
  }),
];
