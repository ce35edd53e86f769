import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { attackSuite, type AttackCase, type CaseResult } from './attack-suite.js';
import { hostGit, readIfThere } from './fixture.js';

/**
 * Ordinary work in the workspace profile must keep working under all the protection: `npm ci`
 * (a local project whose one dependency is a `file:` package, so no network is needed), `npm test`,
 * a build writing ~/.cache, git add/commit/stash/checkout -b (with the read-only pre-commit hook
 * running), and $TMPDIR, read back on the host at the policy's tmp folder.
 */

function addNodeProject(project: string): void {
  mkdirSync(path.join(project, 'packages', 'greet'), { recursive: true });
  writeFileSync(
    path.join(project, 'packages', 'greet', 'package.json'),
    JSON.stringify({ name: 'greet', version: '1.0.0', main: 'index.js' }),
  );
  writeFileSync(path.join(project, 'packages', 'greet', 'index.js'), 'module.exports = (name) => `hello ${name}`;\n');
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'fixture',
        version: '1.0.0',
        private: true,
        dependencies: { greet: 'file:packages/greet' },
        scripts: { test: 'node test.js', build: 'node build.js' },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(project, 'package-lock.json'),
    JSON.stringify(
      {
        name: 'fixture',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'fixture', version: '1.0.0', dependencies: { greet: 'file:packages/greet' } },
          'node_modules/greet': { resolved: 'packages/greet', link: true },
          'packages/greet': { name: 'greet', version: '1.0.0' },
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(path.join(project, 'test.js'), "console.log(require('greet')('tests'));\n");
  writeFileSync(
    path.join(project, 'build.js'),
    [
      "const fs = require('fs'); const os = require('os'); const path = require('path');",
      "const cache = path.join(os.homedir(), '.cache', 'fixture-build');",
      'fs.mkdirSync(cache, { recursive: true });',
      "fs.writeFileSync(path.join(cache, 'artifact.txt'), 'cached\\n');",
      "fs.mkdirSync('dist', { recursive: true });",
      "fs.writeFileSync('dist/out.js', require('greet')('build') + '\\n');",
      "console.log('built');",
    ].join('\n'),
  );
  hostGit(project, ['add', '-A']);
  hostGit(project, ['commit', '-q', '-m', 'node project']);
}

function untrackSecrets(fixture: { readonly project: string }): void {
  hostGit(fixture.project, ['rm', '-q', '--cached', 'config/prod.key']);
  writeFileSync(path.join(fixture.project, '.gitignore'), '.env\nnode_modules/\nconfig/prod.key\n');
  hostGit(fixture.project, ['commit', '-q', '-am', 'untrack the key']);
}

const NPM_FLAGS = '--no-audit --no-fund --no-update-notifier --offline';
const ok = (result: CaseResult): void => {
  for (const step of result.steps) expect(step.code, `${step.stdout}\n${step.stderr}`).toBe(0);
};

const cases: AttackCase[] = [
  {
    name: 'npm ci, npm test and a build writing ~/.cache and dist/',
    setup: (fixture) => addNodeProject(fixture.project),
    steps: () => [
      { profile: 'workspace', command: `npm ci ${NPM_FLAGS}` },
      { profile: 'workspace', via: 'bash', command: 'npm test' },
      { profile: 'workspace', command: 'npm run build' },
    ],
    check: (result) => {
      ok(result);
      const { project, home } = result.fixture;
      expect(result.steps[1]?.stdout).toContain('hello tests');
      expect(readIfThere(path.join(project, 'dist', 'out.js'))).toBe('hello build\n');
      expect(readIfThere(path.join(home, '.cache', 'fixture-build', 'artifact.txt'))).toBe('cached\n');
      expect(readIfThere(path.join(project, 'node_modules', 'greet', 'index.js'))).toContain('hello');
    },
  },
  {
    name: 'git add, commit (the read-only pre-commit hook runs), stash, checkout -b, through the Bash tool',
    // The usual case: the Read-denied files (.env, config/prod.key) are not tracked by git.
    setup: untrackSecrets,
    steps: () => [
      {
        profile: 'workspace',
        via: 'bash',
        command: [
          'git checkout -q -b feature',
          'echo change >> README.md',
          'git add README.md',
          'git commit -q -m "a change"',
          'echo more >> README.md',
          'git stash -q',
          'git stash list | wc -l',
          'git stash pop -q',
          'git status --short',
          'git log --oneline | wc -l',
        ].join(' && '),
      },
    ],
    check: (result) => {
      ok(result);
      const { project } = result.fixture;
      expect(result.last.stdout).toBe('1\n M README.md\n3\n');
      expect(hostGit(project, ['branch', '--show-current']).trim()).toBe('feature');
      expect(hostGit(project, ['log', '-1', '--format=%s']).trim()).toBe('a change');
      expect(readIfThere(path.join(project, 'README.md'))).toBe('# fixture project\nchange\nmore\n');
      expect(readIfThere(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe('#!/bin/sh\nexit 0\n');
    },
  },
  {
    // Open: a masked file git tracks looks modified inside the sandbox (its stand-in differs), and
    // git cannot read it to stash or commit it. Not a hole, a limit on ordinary work: see the report.
    knownHole: true,
    name: 'git stash and commit -a in a repository that tracks a Read-denied file (config/prod.key)',
    steps: () => [
      {
        profile: 'workspace',
        command:
          'echo change >> README.md && git status --short && git stash -q && git stash pop -q && git commit -qam change',
      },
    ],
    check: (result) => {
      ok(result);
      expect(result.last.stdout).toBe(' M README.md\n');
    },
  },
  {
    name: "$TMPDIR is writable and the host reads it back at the policy's tmp folder; the same file is at /tmp",
    steps: () => [
      {
        profile: 'workspace',
        command: 'echo "from the sandbox" > "$TMPDIR/handoff.txt" && cat /tmp/handoff.txt && echo "$TMPDIR"',
      },
    ],
    check: (result) => {
      ok(result);
      expect(readIfThere(path.join(result.fixture.tmpDir, 'handoff.txt'))).toBe('from the sandbox\n');
      expect(result.last.stdout).toBe(`from the sandbox\n${result.fixture.tmpDir}\n`);
    },
  },
  {
    name: "the working folder is the start folder, and a cd is remembered by the Bash tool's report",
    steps: () => [{ profile: 'workspace', via: 'bash', command: 'pwd && mkdir -p sub && cd sub && pwd' }],
    check: (result) => {
      ok(result);
      expect(result.last.stdout).toBe(`${result.fixture.project}\n${result.fixture.project}/sub\n`);
    },
  },
];

attackSuite('sandbox ordinary work', cases);
