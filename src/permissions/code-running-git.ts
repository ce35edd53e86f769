import type { CodeRunningOption } from './code-running-options.js';

/** Options and arguments of git and man that run programs the command line does not show. */
export const GIT_CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
  // git.
  {
    program: ['git'],
    subcommands: ['clone', 'fetch', 'pull', 'ls-remote', 'archive'],
    trigger: { kind: 'option', names: ['--upload-pack', '--exec'] },
    runs: 'a program in place of git-upload-pack',
    source: 'git-fetch(1), git-clone(1), git-pull(1), git-ls-remote(1), git-archive(1): --upload-pack, --exec',
    example: {
      rule: 'Bash(git fetch:*)',
      attack: "git fetch --upload-pack='touch marker;git-upload-pack' origin",
      lookAlike: 'git fetch --prune origin',
    },
  },
  {
    program: ['git'],
    subcommands: ['clone'],
    trigger: { kind: 'option', names: ['-u'] },
    runs: 'a program in place of git-upload-pack (clone -u)',
    source: 'git-clone(1): -u, --upload-pack',
    example: {
      rule: 'Bash(git clone:*)',
      attack: 'git clone -u ./evil https://example.com/r.git',
      lookAlike: 'git clone --depth 1 https://example.com/r.git',
    },
  },
  {
    program: ['git'],
    subcommands: ['clone'],
    trigger: { kind: 'option', names: ['--template', '--config', '-c'] },
    runs: 'hooks from a template folder, or settings that name programs, in the new repository',
    source: 'git-clone(1): --template, --config',
    example: {
      rule: 'Bash(git clone:*)',
      attack: 'git clone --template=./evil https://example.com/r.git',
      lookAlike: 'git clone --branch main https://example.com/r.git',
    },
  },
  {
    program: ['git'],
    subcommands: ['push'],
    trigger: { kind: 'option', names: ['--receive-pack', '--exec'] },
    runs: 'a program in place of git-receive-pack',
    source: 'git-push(1): --receive-pack, --exec',
    example: {
      rule: 'Bash(git push:*)',
      attack: 'git push --receive-pack=./evil origin main',
      lookAlike: 'git push --force-with-lease origin main',
    },
  },
  {
    program: ['git'],
    subcommands: ['rebase'],
    trigger: { kind: 'option', names: ['--exec', '-x'] },
    runs: 'a command after each commit',
    source: 'git-rebase(1): --exec, -x',
    example: {
      rule: 'Bash(git rebase:*)',
      attack: "git rebase --exec 'touch marker' main",
      lookAlike: 'git rebase --autostash main',
    },
  },
  {
    program: ['git'],
    subcommands: ['difftool'],
    trigger: { kind: 'option', names: ['--extcmd', '-x'] },
    runs: 'a command as the diff tool',
    source: 'git-difftool(1): --extcmd, -x',
    example: {
      rule: 'Bash(git difftool:*)',
      attack: "git difftool --extcmd='touch marker' HEAD",
      lookAlike: 'git difftool --dir-diff HEAD',
    },
  },
  {
    program: ['git'],
    subcommands: ['grep'],
    trigger: { kind: 'option', names: ['--open-files-in-pager', '-O'] },
    runs: 'a pager program on the files found',
    source: 'git-grep(1): -O, --open-files-in-pager',
    example: { rule: 'Bash(git grep:*)', attack: 'git grep -O./evil TODO', lookAlike: 'git grep -n TODO' },
  },
  {
    program: ['git'],
    subcommands: ['log', 'show', 'diff', 'whatchanged', 'format-patch', 'blame', 'cat-file'],
    trigger: { kind: 'option', names: ['--ext-diff', '--textconv'] },
    runs: 'diff programs and text filters the configuration names',
    source: 'git-diff(1), git-log(1): --ext-diff, --textconv',
    example: { rule: 'Bash(git log:*)', attack: 'git log -p --ext-diff', lookAlike: 'git log -p --stat' },
  },
  {
    program: ['git'],
    subcommands: ['submodule', 'bisect'],
    trigger: { kind: 'argument', pattern: /^(foreach|run)$/ },
    runs: 'a command in each submodule, or at each bisect step',
    source: 'git-submodule(1): foreach; git-bisect(1): run',
    example: {
      rule: 'Bash(git submodule:*)',
      attack: "git submodule foreach 'touch marker'",
      lookAlike: 'git submodule status',
    },
  },
  {
    program: ['git'],
    subcommands: ['clone', 'fetch', 'pull', 'push', 'ls-remote', 'remote', 'submodule'],
    trigger: { kind: 'argument', pattern: /^ext::/ },
    runs: 'a command as the transport (git-remote-ext)',
    source: 'git-remote-ext(1)',
    example: {
      rule: 'Bash(git fetch:*)',
      attack: "git fetch 'ext::sh -c touch% marker'",
      lookAlike: 'git fetch origin main',
    },
  },
  // man.
  {
    program: ['man'],
    trigger: { kind: 'option', names: ['--pager', '-P'], unless: /^(cat|less|more)$/ },
    runs: 'a pager program',
    source: 'man(1) (man-db): -P, --pager',
    example: { rule: 'Bash(man:*)', attack: 'man -P ./evil ls', lookAlike: 'man -P cat ls' },
  },
  {
    program: ['man'],
    trigger: { kind: 'option', names: ['--html', '-H', '--config-file', '-C', '--gxditview', '-X'] },
    runs: 'a browser or viewer program, or a configuration that names programs',
    source: 'man(1) (man-db): -H, -C, -X',
    example: { rule: 'Bash(man:*)', attack: 'man -H./evil ls', lookAlike: 'man -k printf' },
  },
];
