import { CODE_RUNNING_OPTIONS } from '../code-running-options.js';
import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 4: options that run code under an allowed prefix. One attack and one look-alike
 * per entry of the table in code-running-options.ts (generated, so no entry goes without a case),
 * then the spellings that reach an option: prefixes, underscores, clusters, values known only at
 * run time, wrappers, and a rule that spells the option out itself.
 */

const fromTable: readonly CorpusCase[] = CODE_RUNNING_OPTIONS.flatMap((entry, index) => {
  const id = `C4.${String(index + 1).padStart(2, '0')}`;
  const trigger = entry.trigger.kind === 'option' ? entry.trigger.names.join(' ') : entry.trigger.kind;
  const rules = [`allow ${entry.example.rule}`];
  return [
    bash(
      `${id} ${entry.program.join('/')} ${trigger} runs ${entry.runs} (${entry.source})`,
      entry.example.attack,
      'ask',
      { rules },
    ),
    bash(`${id} look-alike: ${entry.example.lookAlike}`, entry.example.lookAlike, 'allow', { rules }),
  ];
});

const npmTest = ['allow Bash(npm test:*)'];

export const codeOptionCases: readonly CorpusCase[] = [
  ...fromTable,
  bash('C4.s1 an abbreviated long option (nopt accepts prefixes)', 'npm test --node-opt=--require=./x.js', 'ask', {
    rules: npmTest,
  }),
  bash('C4.s2 underscores for dashes', 'npm test --node_options=--require=./x.js', 'ask', { rules: npmTest }),
  bash('C4.s3 the value as the next word', 'npm test --node-options --require=./x.js', 'ask', { rules: npmTest }),
  bash('C4.s4 an option only known at run time', 'npm test $(echo --node-options=--require=./x.js)', 'ask', {
    rules: npmTest,
  }),
  bash('C4.s5 a quoted substitution is still one option', 'npm test "$(echo --node-options=--require=./x.js)"', 'ask', {
    rules: npmTest,
  }),
  bash('C4.s6 behind a wrapper the allow view strips', 'timeout 60 npm test --node-options=--require=./x.js', 'ask', {
    rules: npmTest,
  }),
  bash('C4.s7 after -- the words go to the script, not to npm', 'npm test -- --node-options=x', 'allow', {
    rules: npmTest,
  }),
  bash('C4.s8 a git prefix of --upload-pack', "git fetch --upload='touch marker;git-upload-pack' origin", 'ask', {
    rules: ['allow Bash(git fetch:*)'],
  }),
  bash('C4.s9 look-alike: a real git option that is a prefix of --textconv', 'git log --text -p', 'allow', {
    rules: ['allow Bash(git log:*)'],
  }),
  bash('C4.s10 a short option in a cluster', 'tar -xvIevil -f a.tar', 'ask', { rules: ['allow Bash(tar:*)'] }),
  bash('C4.s11 rsync -e at the end of a cluster', "rsync -avze 'sh -c x' host:src/ out/", 'ask', {
    rules: ['allow Bash(rsync:*)'],
  }),
  bash('C4.s12 look-alike: rsync -e ssh in a cluster', 'rsync -avze ssh src/ host:out/', 'allow', {
    rules: ['allow Bash(rsync:*)'],
  }),
  bash('C4.s13 look-alike: an option the rule spells out itself', 'make -C build test', 'allow', {
    rules: ['allow Bash(make -C build:*)'],
  }),
  bash('C4.s14 the same option again after the rule words', 'make -C build test -C /tmp/evil', 'ask', {
    rules: ['allow Bash(make -C build:*)'],
  }),
  bash(
    'C4.s15 a rule that spells out the whole command still approves it',
    'npm test --node-options=--require=./x.js',
    'allow',
    { rules: ['allow Bash(npm test --node-options=--require=./x.js)'] },
  ),
  bash('C4.s16 go flags with two dashes', 'go test --exec=./evil ./...', 'ask', { rules: ['allow Bash(go test:*)'] }),
  bash('C4.s17 look-alike: go test -args passes the rest to the test binary', 'go test ./... -args -exec x', 'allow', {
    rules: ['allow Bash(go test:*)'],
  }),
  bash('C4.s18 node options with underscores', 'node --test --experimental_loader=./x.mjs', 'ask', {
    rules: ['allow Bash(node --test:*)'],
  }),
  bash('C4.s19 sed s///e', "sed -n 's/a/touch marker/ep' README.md", 'ask', { rules: ['allow Bash(sed -n:*)'] }),
  bash('C4.s20 awk printing to a command', 'awk -F, \'{print | "sh"}\' README.md', 'ask', {
    rules: ['allow Bash(awk -F, *)'],
  }),
  bash('C4.s21 awk -v does not swallow a later option letter', "awk -F, -vfile=x '{print}' README.md", 'allow', {
    rules: ['allow Bash(awk -F, *)'],
  }),
  bash('C4.s22 a code option is never read-only', "sed -n '1e touch marker' README.md", 'ask'),
  bash('C4.s23 make -f given as the next word', 'make -f /tmp/evil.mk test', 'ask', { rules: ['allow Bash(make:*)'] }),
];
