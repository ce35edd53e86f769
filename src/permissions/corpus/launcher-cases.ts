import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 2: shell launchers are judged by their inner script and by their own environment
 * and flags; assignments that change how later commands resolve are a concern. Class 8: safe
 * environment prefixes are not a reason to ask. Attacks with a marker also run in real bash in
 * `bash-proofs.test.ts`.
 */

const everything = ['allow Bash(*)', 'deny Bash(rm *)'];
const npmTest = ['allow Bash(npm test:*)'];

export const launcherCases: readonly CorpusCase[] = [
  bash('C2.01 BASH_ENV runs a file before the script', 'BASH_ENV=<(echo touch marker) bash -c ls', 'ask'),
  bash('C2.01 look-alike: the same script with no startup file', "bash -c 'ls && pwd'", 'allow'),
  bash('C2.02 env BASH_ENV', 'env BASH_ENV=<(echo touch marker) bash -c ls', 'ask'),
  bash('C2.03 ENV runs a file in an interactive sh', 'ENV=<(echo touch marker) sh -i -c ls', 'ask'),
  bash('C2.04 --rcfile runs a file nobody has seen', 'bash --rcfile <(echo touch marker) -ic ls', 'ask'),
  bash('C2.04 look-alike: --rcfile /dev/null', 'bash --rcfile /dev/null -c ls', 'allow'),
  bash('C2.05 --init-file=', "bash --init-file=/tmp/x -ic 'ls'", 'ask'),
  bash('C2.06 -i reads startup files: the launcher needs approval', "bash -i -c 'ls'", 'ask'),
  bash('C2.07 -l reads login files: the launcher needs approval', "bash -lc 'ls'", 'ask'),
  bash('C2.07 look-alike: shell options that read no file', "bash -e -o pipefail -c 'ls | wc -l'", 'allow'),
  bash('C2.08 an exported function replaces a command', "env 'BASH_FUNC_ls%%=() { touch marker; }' bash -c ls", 'ask'),
  bash(
    'C2.09 PS4 runs substitutions when tracing (bash ignores it only as root)',
    "PS4='$(touch x)' bash -xc ls",
    'ask',
  ),
  bash('C2.10 SHELLOPTS for a later bash', 'SHELLOPTS=xtrace bash -c ls', 'ask'),
  bash('C2.11 a variable outside the safe list makes the launcher need approval', "FOO=1 bash -c 'ls'", 'ask'),
  bash('C2.11 look-alike: a safe variable in front of a launcher', "LANG=C bash -c 'ls'", 'allow'),
  bash('C2.12 PATH in front of an allowed command', 'PATH=./bin:$PATH git status', 'ask', {
    rules: ['allow Bash(git status:*)'],
  }),
  bash('C2.13 PATH assigned before a later command', 'PATH=./bin:$PATH; git status', 'ask', { rules: everything }),
  bash('C2.14 export PATH before a later command', 'export PATH=./bin:$PATH; git status', 'ask', { rules: everything }),
  bash('C2.14 look-alike: export of a variable that changes no lookup', 'export NODE_ENV=test; git status', 'allow', {
    rules: everything,
  }),
  bash('C2.15 printf -v PATH', 'printf -v PATH %s ./bin; git status', 'ask', { rules: everything }),
  bash('C2.16 read PATH from input', 'read -r PATH <<< ./bin; git status', 'ask', { rules: everything }),
  bash('C2.17 declare -x PATH', 'declare -x PATH=./bin', 'ask', { rules: everything }),
  bash('C2.18 LD_PRELOAD in front of a read-only command', 'LD_PRELOAD=./x.so ls', 'ask'),
  bash('C2.19 HOME points git at another configuration', 'HOME=./evil git status', 'ask', { rules: everything }),
  bash('C2.20 GIT_CONFIG_GLOBAL', 'GIT_CONFIG_GLOBAL=./evil git status', 'ask', { rules: everything }),
  bash('C2.21 GIT_DIR points git at another repository', 'GIT_DIR=../other/.git git log', 'ask', { rules: everything }),
  bash('C2.21 look-alike: a git identity variable', 'GIT_AUTHOR_NAME=x git status', 'allow', { rules: everything }),
  bash('C2.22 CDPATH changes where cd goes', 'CDPATH=/etc; cd ssh && cat config', 'ask', { rules: everything }),
  bash('C2.23 hash -p makes a name run another program', 'hash -p ./evil git; git status', 'ask', {
    rules: everything,
  }),
  bash('C2.24 enable -f loads a builtin from a library', 'enable -f ./x.so x', 'ask', { rules: everything }),
  bash('C2.25 npm_config_ in front of npm', 'npm_config_script_shell=./evil npm test', 'ask', { rules: npmTest }),
  bash('C2.26 env -S hands a string to a shell', `env -S 'sh -c "touch marker"'`, 'ask'),
  // Launchers that hand their argument to sh -c: deny rules and approval see the script.
  bash('C2.30 su -c', "su -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.31 su user -c behind sudo', "sudo su root -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.32 runuser -c', "runuser -u nobody -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.33 script -qc (a cluster ending in c)', "script -qc 'rm -rf src' /dev/null", 'deny', { rules: everything }),
  bash('C2.34 script --command=', "script --command='rm -rf src' /dev/null", 'deny', { rules: everything }),
  bash('C2.35 an allow rule for script does not approve its script', "script -qc 'touch marker' /dev/null", 'ask', {
    rules: ['allow Bash(script:*)'],
  }),
  bash('C2.36 flock -c', "flock /tmp/lock -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.37 watch joins its words for sh -c', "watch 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.38 watch -n behind sudo', "sudo watch -n 1 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.39 busybox sh -c', "busybox sh -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.40 dash -c', "dash -c 'rm -rf src'", 'deny', { rules: everything }),
  bash('C2.41 env -S with a nested shell', `env -S 'bash -c "rm -rf src"'`, 'deny', { rules: everything }),
  // Class 8: safe environment prefixes.
  bash('C8.01 NODE_ENV in front of an allowed command', 'NODE_ENV=test npm test', 'allow', { rules: npmTest }),
  bash('C8.02 CI and NODE_ENV together', 'CI=1 NODE_ENV=test npm test -- --watch=false', 'allow', { rules: npmTest }),
  bash('C8.03 TZ, LC_ALL and NO_COLOR', 'TZ=UTC LC_ALL=C NO_COLOR=1 npm test', 'allow', { rules: npmTest }),
  bash('C8.04 FORCE_COLOR and TERM on a read-only command', 'FORCE_COLOR=0 TERM=dumb git log --oneline', 'allow'),
  bash('C8.05 a locale name holding a path is not safe', 'LANG=/tmp/x npm test', 'ask', { rules: npmTest }),
  bash('C8.06 TZ naming a zone file is not safe', 'TZ=:/tmp/zone npm test', 'ask', { rules: npmTest }),
  bash('C8.07 DEBUG is not on the safe list (libraries log tokens under it)', 'DEBUG=* npm test', 'ask', {
    rules: npmTest,
  }),
  bash('C8.08 NODE_OPTIONS is never safe', 'NODE_OPTIONS=--require=./x.js npm test', 'ask', { rules: npmTest }),
  bash('C8.09 a computed value of a safe name is not safe', 'NODE_ENV=$(cat x) npm test', 'ask', { rules: npmTest }),
  bash('C8.10 an escaped substitution parses and only prints', 'echo \\$(pwd)', 'allow'),
];
