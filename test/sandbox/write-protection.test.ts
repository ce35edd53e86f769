import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { allOutput, attackSuite, type AttackCase, type CaseResult } from './attack-suite.js';
import { hostGit, hostGitOutput, projectState, readIfThere } from './fixture.js';
import type { SandboxStep } from './sandbox-runner.js';

/**
 * Write protection in the workspace profile: files that programs outside the sandbox run or load
 * (git hooks and config, agent settings, MCP configuration, CI workflows, direnv, configured hook
 * scripts) stay read-only inside the working folder; a missing one cannot be created; renaming a
 * parent and putting a copy in its place fails; and an ordinary command leaves the project as it
 * was (`git status` identical, no stand-in folders left once the session ends).
 */

const EVIL = 'EVIL-PAYLOAD-d41f';

const workspace = (command: string, extra: Partial<SandboxStep> = {}): SandboxStep => ({
  profile: 'workspace',
  command,
  ...extra,
});

/** The files of the fixture that must come out of every attack byte for byte as they went in. */
const GUARDED: Readonly<Record<string, string | undefined>> = {
  '.git/hooks/pre-commit': '#!/bin/sh\nexit 0\n',
  '.toolplane/settings.json': '{}\n',
  '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
  '.envrc': 'export FIXTURE=1\n',
  'scripts/hook.sh': '#!/bin/sh\necho hook ran\n',
  '.claude': undefined,
  '.mcp.json': undefined,
  '.git/hooks/post-checkout': undefined,
  '.github/workflows/x.yml': undefined,
};

function expectUntouched(result: CaseResult): void {
  const { project } = result.fixture;
  for (const [file, content] of Object.entries(GUARDED)) {
    expect(readIfThere(path.join(project, file)), file).toBe(content);
  }
  const config = readIfThere(path.join(project, '.git', 'config')) ?? '';
  expect(config).not.toContain(EVIL);
  expect(config).not.toContain('hooksPath');
  expect(config).not.toContain('fsmonitor');
  expect(allOutput(result)).not.toContain('PLANTED-OK');
  // Nothing of the sandbox's is left in the project once its session ended.
  expect(projectState(project)).toBe(result.before);
}

/** Marks success of an attack in the output; `expectUntouched` refuses it. */
const planted = (command: string): string => `(${command}) && echo PLANTED-OK`;

const attacks: AttackCase[] = [
  {
    name: 'git hooks: writing, replacing or chmod-ing .git/hooks/pre-commit, adding post-checkout',
    steps: () => [
      workspace(
        [
          planted(`echo ${EVIL} >> .git/hooks/pre-commit`),
          planted(`printf '#!/bin/sh\\n${EVIL}\\n' > .git/hooks/post-checkout`),
          planted('rm -f .git/hooks/pre-commit'),
          planted('mv .git/hooks .git/hooks.old'),
          planted('chmod 777 .git/hooks/pre-commit'),
          planted('ln -sf /bin/true .git/hooks/post-checkout'),
        ].join('; '),
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'git config: appending, git config core.hooksPath / core.fsmonitor, replacing the file',
    steps: () => [
      workspace(
        [
          planted(`echo "[core] sshCommand = ${EVIL}" >> .git/config`),
          planted('git config core.hooksPath scripts'),
          planted(`git config core.fsmonitor "${EVIL}"`),
          planted('cp .git/config /tmp/c && echo "[core] hooksPath = x" >> /tmp/c && mv /tmp/c .git/config'),
        ].join('; '),
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'agent settings and MCP configuration: .claude/settings.json, .mcp.json (both missing), .toolplane/settings.json',
    steps: () => [
      workspace(
        [
          planted(`mkdir -p .claude && echo '{"hooks":"${EVIL}"}' > .claude/settings.json`),
          planted(`echo '{"mcpServers":{"x":{"command":"${EVIL}"}}}' > .mcp.json`),
          planted('rmdir .mcp.json'),
          planted('rmdir .claude'),
          planted(`echo ${EVIL} > .toolplane/settings.json`),
          planted(`echo ${EVIL} > .toolplane/settings.local.json`),
        ].join('; '),
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'CI and direnv: .github/workflows/x.yml, .envrc, and the configured hook script scripts/hook.sh',
    steps: () => [
      workspace(
        [
          planted(`echo ${EVIL} > .github/workflows/x.yml`),
          planted(`echo ${EVIL} >> .github/workflows/ci.yml`),
          planted(`echo ${EVIL} >> .envrc`),
          planted(`echo ${EVIL} >> scripts/hook.sh`),
          planted('rm -f scripts/hook.sh'),
          planted(`sed -i s/echo/${EVIL}/ scripts/hook.sh`),
        ].join('; '),
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'rename-swap of .git: mv .git .git.old && cp -r .git.old .git && plant a hook',
    steps: () => [
      workspace(planted(`mv .git .git.old && cp -r .git.old .git && echo ${EVIL} > .git/hooks/pre-commit`)),
    ],
    check: expectUntouched,
  },
  {
    name: "rename-swap of .git/hooks and of a hook script's folder",
    steps: () => [
      workspace(
        [
          planted(`mv .git/hooks .git/hooks.old && mkdir .git/hooks && echo ${EVIL} > .git/hooks/pre-commit`),
          planted(`mv scripts scripts.old && mkdir scripts && echo ${EVIL} > scripts/hook.sh`),
        ].join('; '),
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'rename-swap of an existing .claude, of .github/workflows and of .github itself',
    setup: (fixture) => {
      mkdirSync(path.join(fixture.project, '.claude'));
      writeFileSync(path.join(fixture.project, '.claude', 'settings.json'), '{}\n');
      hostGit(fixture.project, ['add', '.claude']);
      hostGit(fixture.project, ['commit', '-q', '-m', 'claude settings']);
    },
    steps: () => [
      workspace(
        [
          planted(`mv .claude .claude.old && mkdir .claude && echo ${EVIL} > .claude/settings.json`),
          planted(
            `mv .github/workflows .github/wf && mkdir .github/workflows && echo ${EVIL} > .github/workflows/x.yml`,
          ),
          planted(`mv .github .github.old && cp -r .github.old .github && echo ${EVIL} > .github/workflows/x.yml`),
        ].join('; '),
      ),
    ],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.claude', 'settings.json'))).toBe('{}\n');
      expect(readIfThere(path.join(result.fixture.project, '.github', 'workflows', 'x.yml'))).toBeUndefined();
      expect(allOutput(result)).not.toContain('PLANTED-OK');
      expect(projectState(result.fixture.project)).toBe(result.before);
    },
  },
  {
    name: 'a missing .claude cannot be created by a rename either (mv a prepared folder into place)',
    steps: () => [
      workspace(
        planted(`mkdir -p /tmp/c && echo ${EVIL} > /tmp/c/settings.json && mv /tmp/c .claude`) +
          '; ' +
          planted(`mkdir prep && echo ${EVIL} > prep/settings.json && mv -T prep .claude`),
      ),
    ],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.claude', 'settings.json'))).toBeUndefined();
      expect(allOutput(result)).not.toContain('PLANTED-OK');
    },
  },
  {
    name: 'a hook script inside .claude/hooks (the usual layout) keeps the whole of .claude read-only',
    setup: (fixture) => {
      mkdirSync(path.join(fixture.project, '.claude', 'hooks'), { recursive: true });
      writeFileSync(path.join(fixture.project, '.claude', 'settings.json'), '{}\n');
      writeFileSync(path.join(fixture.project, '.claude', 'hooks', 'check.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      (fixture.protectedFiles as string[]).push(path.join(fixture.project, '.claude', 'hooks', 'check.sh'));
    },
    steps: () => [
      workspace(
        [
          planted(`echo '{"hooks":"${EVIL}"}' > .claude/settings.json`),
          planted(`echo ${EVIL} > .claude/settings.local.json`),
          planted(`echo ${EVIL} >> .claude/hooks/check.sh`),
          planted(`echo ${EVIL} > .claude/hooks/other.sh`),
        ].join('; '),
      ),
    ],
    check: (result) => {
      const { project } = result.fixture;
      expect(readIfThere(path.join(project, '.claude', 'settings.json'))).toBe('{}\n');
      expect(readIfThere(path.join(project, '.claude', 'settings.local.json'))).toBeUndefined();
      expect(readIfThere(path.join(project, '.claude', 'hooks', 'check.sh'))).toBe('#!/bin/sh\nexit 0\n');
      expect(allOutput(result)).not.toContain('PLANTED-OK');
    },
  },
  {
    name: 'a git worktree: its .git file (the pointer to the git folder) cannot be rewritten to a planted repository',
    setup: (fixture) => {
      const linked = path.join(fixture.root, 'linked');
      hostGit(fixture.project, ['worktree', 'add', '-q', linked]);
      // The session works in the linked worktree; its git folder lives in the main checkout, outside.
      (fixture as { project: string }).project = linked;
    },
    steps: () => [
      workspace(
        planted(
          `mkdir -p evil && cp -r $(git rev-parse --git-common-dir)/. evil/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "${EVIL}"\\n' > evil/config && echo "gitdir: $PWD/evil" > .git`,
        ),
      ),
    ],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.git'))).toMatch(
        /^gitdir: .*\/\.git\/worktrees\/linked\n$/,
      );
      expect(allOutput(result)).not.toContain('PLANTED-OK');
    },
  },
  {
    name: "a submodule's git folder (config with core.fsmonitor, hooks) and its .git file cannot be rewritten",
    setup: (fixture) => {
      const library = path.join(fixture.root, 'library');
      mkdirSync(library);
      writeFileSync(path.join(library, 'lib.txt'), 'lib\n');
      hostGit(library, ['init', '-q', '-b', 'main', '--template=']);
      hostGit(library, ['add', '-A']);
      hostGit(library, ['commit', '-q', '-m', 'lib']);
      hostGit(fixture.project, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'libs/lib']);
      hostGit(fixture.project, ['commit', '-q', '-m', 'submodule']);
    },
    steps: () => [
      workspace(
        [
          planted(`printf '[core]\\n\\tfsmonitor = "${EVIL}"\\n' >> .git/modules/libs/lib/config`),
          planted(`mkdir -p .git/modules/libs/lib/hooks && echo ${EVIL} > .git/modules/libs/lib/hooks/post-checkout`),
          planted('echo "gitdir: /tmp/evil" > libs/lib/.git'),
          planted('mv .git/modules/libs/lib .git/modules/libs/moved'),
        ].join('; '),
      ),
    ],
    check: (result) => {
      const { project } = result.fixture;
      expect(readIfThere(path.join(project, '.git', 'modules', 'libs', 'lib', 'config')) ?? '').not.toContain(EVIL);
      expect(
        readIfThere(path.join(project, '.git', 'modules', 'libs', 'lib', 'hooks', 'post-checkout')),
      ).toBeUndefined();
      expect(readIfThere(path.join(project, 'libs', 'lib', '.git'))).toBe('gitdir: ../../.git/modules/libs/lib\n');
      expect(allOutput(result)).not.toContain('PLANTED-OK');
    },
  },
  {
    name: 'a nested repository in the working folder (a folder of checkouts): its hooks and config stay read-only',
    setup: (fixture) => {
      const nested = path.join(fixture.project, 'checkouts', 'other');
      mkdirSync(nested, { recursive: true });
      hostGit(nested, ['init', '-q', '-b', 'main']);
    },
    steps: () => [
      workspace(
        [
          planted(`echo ${EVIL} > checkouts/other/.git/hooks/pre-commit`),
          planted(`git -C checkouts/other config core.fsmonitor "${EVIL}"`),
          planted('echo ok > checkouts/other/file.txt'),
        ].join('; '),
      ),
    ],
    check: (result) => {
      const nested = path.join(result.fixture.project, 'checkouts', 'other');
      expect(readIfThere(path.join(nested, '.git', 'hooks', 'pre-commit'))).toBeUndefined();
      expect(readIfThere(path.join(nested, '.git', 'config')) ?? '').not.toContain(EVIL);
      // The look-alike: the nested checkout itself is as writable as the rest of the project.
      expect(readIfThere(path.join(nested, 'file.txt'))).toBe('ok\n');
      expect(allOutput(result).match(/PLANTED-OK/g)?.length).toBe(1);
    },
  },
  {
    name: 'a symlinked protected file (.envrc -> envrc.sh): writing through the link fails',
    setup: (fixture) => {
      rmSync(path.join(fixture.project, '.envrc'));
      writeFileSync(path.join(fixture.project, 'envrc.sh'), 'export FIXTURE=1\n');
      symlinkSync('envrc.sh', path.join(fixture.project, '.envrc'));
    },
    steps: () => [workspace([planted(`echo ${EVIL} >> .envrc`), planted(`echo ${EVIL} >> envrc.sh`)].join('; '))],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.envrc'))).toBe('export FIXTURE=1\n');
      expect(allOutput(result)).not.toContain('PLANTED-OK');
    },
  },
  {
    // Open: a mount cannot be put on a symlink itself, and the folder holding it is the writable project.
    knownHole: true,
    name: 'a symlinked protected file (.envrc -> envrc.sh): replacing the link with a file',
    setup: (fixture) => {
      rmSync(path.join(fixture.project, '.envrc'));
      writeFileSync(path.join(fixture.project, 'envrc.sh'), 'export FIXTURE=1\n');
      symlinkSync('envrc.sh', path.join(fixture.project, '.envrc'));
    },
    steps: () => [workspace(planted(`rm .envrc && echo ${EVIL} > .envrc`))],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.envrc'))).toBe('export FIXTURE=1\n');
    },
  },
  {
    // Open: git reads $GIT_DIR/commondir, which does not exist in an ordinary repository; a stand-in
    // file or folder there would itself break git. See the report for a proposal.
    knownHole: true,
    name: "git commondir: a new .git/commondir pointing at a planted config cannot redirect the host's git",
    steps: () => [
      workspace(
        `mkdir -p evil && cp -r .git/. evil/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "${EVIL}"\\n' > evil/config && echo "$PWD/evil" > .git/commondir`,
      ),
    ],
    check: (result) => {
      expect(readIfThere(path.join(result.fixture.project, '.git', 'commondir'))).toBeUndefined();
      expect(hostGitOutput(result.fixture.project, ['config', '--get', 'core.fsmonitor']).trim()).toBe('');
    },
  },
];

const concurrency: AttackCase[] = [
  {
    name: 'two commands of one session at once, the first ending first: the second still cannot create .claude, and nothing is left',
    steps: () => [
      workspace('sleep 0.3; echo first-done'),
      workspace(
        `for i in $(seq 1 25); do ${planted(`mkdir -p .claude && echo ${EVIL} > .claude/settings.json`)} 2>/dev/null && break; sleep 0.1; done; true`,
        { concurrentAfterMs: 100 },
      ),
    ],
    check: expectUntouched,
  },
  {
    name: 'two sessions in one project at once, the first ending first: the second still cannot create .claude or .github/workflows',
    setup: (fixture) => rmSync(path.join(fixture.project, '.github'), { recursive: true }),
    steps: () => [
      workspace('sleep 0.3; echo first-done', { session: 'a' }),
      workspace(
        `for i in $(seq 1 25); do ${planted(`mkdir -p .claude .github/workflows && echo ${EVIL} > .claude/settings.json && echo ${EVIL} > .github/workflows/x.yml`)} 2>/dev/null && break; sleep 0.1; done; true`,
        { session: 'b', concurrentAfterMs: 100 },
      ),
    ],
    check: (result) => {
      const { project } = result.fixture;
      expect(readIfThere(path.join(project, '.claude', 'settings.json'))).toBeUndefined();
      expect(readIfThere(path.join(project, '.github', 'workflows', 'x.yml'))).toBeUndefined();
      expect(allOutput(result)).not.toContain('PLANTED-OK');
      expect(readdirSync(project).filter((name) => name === '.claude' || name === '.github')).toEqual([]);
    },
  },
];

const lookAlikes: AttackCase[] = [
  {
    name: 'look-alike: ordinary edits next to the protected files work, and git sees exactly them',
    steps: () => [
      workspace(
        [
          'echo "export const x = 1;" > src.ts',
          'mkdir -p .claude-notes && echo notes > .claude-notes/a.md',
          'echo docs > .github/README.md',
          'echo example > .envrc.example',
          'cat .git/config .git/hooks/pre-commit .envrc > /dev/null',
          'ls .git/hooks .github/workflows > /dev/null',
          'echo ok',
        ].join(' && '),
      ),
    ],
    check: (result) => {
      expect(result.last.code).toBe(0);
      const status = hostGit(result.fixture.project, ['status', '--porcelain']);
      expect(status.split('\n').filter(Boolean).sort()).toEqual([
        '?? .claude-notes/',
        '?? .envrc.example',
        '?? .github/README.md',
        '?? src.ts',
      ]);
    },
  },
  {
    name: 'look-alike: a read-only command and an ordinary workspace command leave git status and the folder as they were',
    steps: () => [
      { profile: 'read-only', command: 'ls -la; git status; git log --oneline' },
      workspace('git status --short; git diff; ls -A'),
    ],
    check: (result) => {
      expect(result.steps.every((step) => step.code === 0)).toBe(true);
      expect(projectState(result.fixture.project)).toBe(result.before);
    },
  },
];

attackSuite('sandbox write protection', [...attacks, ...concurrency, ...lookAlikes]);
