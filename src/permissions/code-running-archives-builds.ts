import type { CodeRunningOption } from './code-running-options.js';

const TAR_DOCS = 'GNU tar manual (gnu.org/software/tar/manual)';
const MAKE_DOCS = 'GNU make manual, 9.7 Summary of Options';
const GO_BUILD = '`go help build` (build flags, shared by run, test, install, vet)';
const CARGO_DOCS = 'doc.rust-lang.org/cargo/commands/cargo.html and /reference/config.html';

/** Options of tar, make, go and cargo that run code the command line does not show. */
export const ARCHIVE_AND_BUILD_CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
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
];
