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
];
