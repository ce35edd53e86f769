import type { CodeRunningOption } from './code-running-options.js';

const DOCKER_RUN = 'docs.docker.com/reference/cli/docker/container/run';

/** Options and program texts of rsync, sed, awk, find, xargs and docker that run code the command line does not show. */
export const SHELL_TOOL_CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
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
