import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 5: globs and spellings that hide a denied path from deny rules. A word that can
 * expand to a denied path is judged by every path it names now (bash expands globs against the
 * files that exist; a glob that names nothing reaches the program as written), and a word whose
 * path cannot be known asks when a deny rule could cover it, in every mode.
 */

const denies = ['deny Read(./.env)', 'deny Read(~/.ssh/**)'];
const bypass = { mode: 'bypassPermissions' as const, rules: denies };

export const globSpellingCases: readonly CorpusCase[] = [
  bash('C5.01 a ? glob', 'cat .en?', 'deny', { rules: denies }),
  bash('C5.02 a bracket class', 'cat .e[n]v', 'deny', { rules: denies }),
  bash('C5.03 quotes inside the word', 'cat ".e"nv', 'deny', { rules: denies }),
  bash('C5.04 a backslash inside the word', 'cat .e\\nv', 'deny', { rules: denies }),
  bash('C5.05 a glob in a folder of the home', 'cat ~/.ss?/id_rsa', 'deny', { rules: denies }),
  bash('C5.06 brace expansion', 'cat .e{n,x}v', 'deny', { rules: denies }),
  bash('C5.07 a star in bypass mode (deny rules hold in every mode)', 'cat .e*', 'deny', bypass),
  bash('C5.08 a read redirect with a glob', 'cat < .en?', 'deny', { rules: denies }),
  bash('C5.09 a write redirect with a glob', 'echo x > .en?', 'deny', { rules: denies }),
  bash('C5.10 cp of a glob (a Read deny covers writes too)', 'cp .en? src/x', 'deny', { rules: denies }),
  bash('C5.11 every file of a denied folder', 'head -1 ~/.ssh/*', 'deny', { rules: denies }),
  bash('C5.12 quoted parts around a class', "cat '.e'[n]'v'", 'deny', { rules: denies }),
  bash('C5.13 a class after the leading dot', 'cat .[e]nv', 'deny', { rules: denies }),
  bash('C5.14 a quoted letter then a glob', 'cat .e"n"?', 'deny', { rules: denies }),
  bash('C5.15 the last letter in a class', 'cat ~/.ssh/id_rs[a]', 'deny', { rules: denies }),
  bash('C5.16 rm of a glob by rule', 'rm -rf .en?', 'deny', { rules: [...denies, 'allow Bash(rm:*)'] }),
  bash('C5.17 glob options changed in the same command: unknowable', 'shopt -s nocaseglob; cat .EN?', 'ask', {
    rules: denies,
  }),
  bash('C5.18 a path in a variable, in bypass mode', 'F=.env; cat $F', 'ask', bypass),
  bash('C5.19 a folder only known at run time, in bypass mode', 'cd "$D" && cat x', 'ask', bypass),
  bash(
    'C5.20 look-alike: a bracket holding the leading dot names nothing (bash passes it as written)',
    'cat [.]env',
    'allow',
    { rules: denies },
  ),
  bash('C5.21 look-alike: a glob over the project', 'cat *.md && ls src/* && cat src/*', 'allow', { rules: denies }),
  bash('C5.22 look-alike: a quoted star is literal', "cat '*.md'", 'allow', { rules: denies }),
  bash('C5.23 look-alike: a glob that names no file', 'cat *.env', 'allow', { rules: denies }),
  bash('C5.24 look-alike: grep over a glob in bypass mode', 'grep -n x src/*.ts', 'allow', bypass),
  bash('C5.25 look-alike: a variable read with no deny rule in bypass mode', 'F=README.md; cat $F', 'allow', {
    mode: 'bypassPermissions',
  }),
];
