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
  bash('X6 a line starting with an escape is a command of its own', 'echo x\n\\rm -rf build', 'deny', { rules: ['deny Bash(rm:*)'] }),
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
];
