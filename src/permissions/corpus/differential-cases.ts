import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Holes the differential test (test/differential/) found by running generated commands the
 * engine allowed and seeing what they did; each as the attack and a harmless look-alike.
 */
export const differentialCases: readonly CorpusCase[] = [
  // Bash removes an unquoted backslash-newline before splitting words; the grammar split there.
  bash('X1 backslash-newline inside a find action', 'find src -\\\ndelete', 'ask'),
  bash('X2 backslash-newline inside a denied file name', 'cat .en\\\nv', 'deny', { rules: ['deny Read(.env)'] }),
  bash('X3 backslash-newline inside a program name', 'r\\\nm -rf build', 'deny', { rules: ['deny Bash(rm:*)'] }),
  bash('X4 look-alike: backslash-newline between words', 'ls -la \\\n  src', 'allow'),
  bash('X5 look-alike: backslash-newline inside single quotes is data', "echo 'a\\\nb'", 'allow'),
  // The grammar glued a line starting with a backslash escape onto the command before it.
  bash('X6 a line starting with an escape is a command of its own', 'echo x\n\\rm -rf build', 'deny', {
    rules: ['deny Bash(rm:*)'],
  }),
  bash('X7 the same after an assignment', 'A=1\n\\rm -rf build', 'deny', { rules: ['deny Bash(rm:*)'] }),
  bash('X8 the same after a redirect', 'cat README.md >/dev/null\n\\rm -rf build', 'ask'),
  bash('X9 look-alike: two read-only lines, the second escaped', 'echo x\n\\ls src', 'allow'),
  // Builtins that take a variable name evaluate its subscript as arithmetic.
  bash('X10 test -v evaluates a subscript', "test -v 'a[$(rm -rf build)]'", 'ask'),
  bash('X11 printf -v evaluates a subscript', "printf -v 'a[$(rm -rf build)]' %s x", 'ask'),
  bash('X12 printf -v PATH changes what later words run', 'printf -v PATH %s ./bin; ls', 'ask'),
  bash('X13 look-alike: test -v of a plain name', 'test -v HOME', 'allow'),
  bash('X14 look-alike: printf without -v', "printf '%s\\n' hi", 'allow'),
  // ps's BSD e option prints every process's environment (the agent's API key).
  bash('X15 ps e', 'ps e', 'ask'),
  bash('X16 ps -e e -o command', 'ps -e e -o command', 'ask'),
  bash('X17 look-alike: ps -ef', 'ps -ef', 'allow'),
  bash('X18 look-alike: ps aux', 'ps aux', 'allow'),
  // A shell's own environment and startup files run before its script.
  bash('X19 BASH_ENV runs a file before bash -c', "BASH_ENV=<(echo 'rm -rf build') bash -c true", 'ask'),
  bash('X20 PATH in front of sh -c changes what the script runs', 'PATH=./bin sh -c ls', 'ask'),
  bash('X21 bash --rcfile runs a file', 'bash --rcfile tools/x.sh -ic true', 'ask'),
  bash('X22 look-alike: a safe prefix in front of bash -c', 'LC_ALL=C bash -c ls', 'allow'),
  // An allow rule for git log or git diff approves the program, not the files its options name.
  bash('X23 git log --output under a git log rule', 'git log --output={outside}/x', 'ask', {
    rules: ['allow Bash(git log:*)'],
  }),
  bash('X24 git log --out abbreviated, separate value', 'git log -n1 --out {outside}/x', 'ask', {
    rules: ['allow Bash(git log:*)'],
  }),
  bash('X25 look-alike: git log --output into a folder an Edit rule allows', 'git log --output=src/log.txt', 'allow', {
    rules: ['allow Bash(git log:*)', 'allow Edit(/src/**)'],
  }),
  bash(
    'X26 git diff --no-index reads a denied key under a git diff rule',
    'git diff --no-index {home}/.ssh/id_rsa /dev/null',
    'deny',
    { rules: ['allow Bash(git diff:*)', 'deny Read(~/.ssh/**)'] },
  ),
  bash(
    'X27 git diff --no-index with a glob that can name the key',
    'git diff --no-index {home}/.ssh/id_[r]sa /dev/null',
    'ask',
    { rules: ['allow Bash(git diff:*)', 'deny Read(~/.ssh/**)'] },
  ),
  bash('X28 look-alike: git diff --no-index of two project files', 'git diff --no-index README.md src/a.ts', 'allow', {
    rules: ['allow Bash(git diff:*)'],
  }),
  // npm options that run other code than the script a rule names.
  bash('X29 npm test --node-options under an npm test rule', 'npm test --node-options=--require=./x.js', 'ask', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('X30 npm test --script-shell', 'npm test --script-shell=./x.sh', 'ask', { rules: ['allow Bash(npm test:*)'] }),
  bash('X31 npm test --node-opt abbreviated', 'npm test --node-opt --require=./x.js', 'ask', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('X32 look-alike: the same words after -- go to the script', 'npm test -- --node-options=x', 'allow', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('X33 look-alike: npm test --silent', 'npm test --silent', 'allow', { rules: ['allow Bash(npm test:*)'] }),
  // Files a read-only command reads through an option's value.
  bash('X34 diff -X reads its exclude file', 'diff -X {home}/.ssh/id_rsa README.md src/a.ts', 'deny', {
    rules: ['deny Read(~/.ssh/**)'],
  }),
  bash('X35 du --exclude-from reads its file', 'du --exclude-from=.env src', 'deny', { rules: ['deny Read(.env)'] }),
  bash('X36 grep --exclude-from reads its file', 'grep -r --exclude-from .env x src', 'deny', {
    rules: ['deny Read(.env)'],
  }),
  bash('X37 rg --ignore-file reads its file', 'rg --ignore-file .env x src', 'deny', { rules: ['deny Read(.env)'] }),
  bash('X38 look-alike: diff -x with a pattern', "diff -x '*.o' README.md src/a.ts", 'allow'),
  // The grammar hid what follows a here-document's delimiter, and ended a here-document early.
  bash('X39 a pipe after a here-document', 'cat <<EOF | rm -rf build\nx\nEOF', 'deny', { rules: ['deny Bash(rm:*)'] }),
  bash('X40 && after a here-document', 'cat <<EOF && rm -rf build\nx\nEOF', 'deny', { rules: ['deny Bash(rm:*)'] }),
  bash('X41 a write redirect after a here-document', 'cat <<EOF > {outside}/x\nhi\nEOF', 'ask'),
  bash(
    'X42 a here-document ends only at its delimiter alone on a line',
    "cat <<EOF\n$(ls)\nEOF || cat <<'E'\n$(rm -rf build)\nE",
    'ask',
  ),
  bash('X43 look-alike: a here-document piped into grep', 'cat <<EOF | grep x\nx\nEOF', 'allow'),
  bash('X44 look-alike: <<- strips the tabs before the delimiter', 'cat <<-EOF\n\tx\n\tEOF', 'allow'),
  bash('X45 ss --filter reads its file (abbreviated)', 'ss --fil {home}/.ssh/id_rsa', 'deny', {
    rules: ['deny Read(~/.ssh/**)'],
  }),
  bash('X46 ss -D writes a file', 'ss -D {outside}/dump', 'ask'),
  bash('X47 pgrep -F reads a pid file', 'pgrep -F .env', 'deny', { rules: ['deny Read(.env)'] }),
  bash('X48 look-alike: ss -tlnp', 'ss -tlnp', 'allow'),
  bash('X49 look-alike: pgrep -f node', 'pgrep -f node', 'allow'),
  bash('X50 npm test --logs-dir writes there under an npm test rule', 'npm test --logs-dir={outside}/logs', 'ask', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('X51 npm test --cache writes there', 'npm test --cache {outside}/cache', 'ask', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('X52 look-alike: npm test --cache into a folder an Edit rule allows', 'npm test --cache=src/cache', 'allow', {
    rules: ['allow Bash(npm test:*)', 'allow Edit(/src/**)'],
  }),
  bash('X53 git diff -O reads its order file under a git diff rule', 'git diff -O.env notes.txt', 'deny', {
    rules: ['allow Bash(git diff:*)', 'deny Read(.env)'],
  }),
  bash('X54 git log -O with the file as the next word', 'git log -p -O {home}/.ssh/id_rsa', 'deny', {
    rules: ['allow Bash(git log:*)', 'deny Read(~/.ssh/**)'],
  }),
  bash('X55 look-alike: git diff -O with a project file', 'git diff -O README.md', 'allow', {
    rules: ['allow Bash(git diff:*)'],
  }),
  bash('X56 git grep -f reads its pattern file', 'git grep -f {home}/.ssh/id_rsa', 'deny', {
    rules: ['deny Read(~/.ssh/**)'],
  }),
  bash('X57 look-alike: git grep -e with a pattern', 'git grep -e export', 'allow'),
  bash('X58 git grep -f of a file outside the working folders asks', 'git grep -f {outside}/file.txt', 'ask'),
  bash(
    'X59 git diff of a file outside the repository implies --no-index',
    'git diff {home}/.ssh/id_rsa README.md',
    'deny',
    { rules: ['allow Bash(git diff:*)', 'deny Read(~/.ssh/**)'] },
  ),
  bash('X60 the same with an option and a glob', 'git diff -C {home}/.ssh/id_rsa ?EADME.md', 'deny', {
    rules: ['allow Bash(git diff:*)', 'deny Read(~/.ssh/**)'],
  }),
  bash('X61 look-alike: git diff of two revisions', 'git diff HEAD~1 HEAD -- src', 'allow', {
    rules: ['allow Bash(git diff:*)'],
  }),
  bash('X62 ps e behind a wrapper', 'nice ps -e e -o command', 'ask'),
  bash('X63 ps e behind timeout', 'timeout 5 ps eww', 'ask'),
  bash('X64 look-alike: ps -ef behind nice', 'nice ps -ef', 'allow'),
];
