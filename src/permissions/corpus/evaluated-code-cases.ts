import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 1: code bash evaluates where a reading of words sees data (array subscripts and
 * arithmetic in builtins that take variable names, unquoted here-document bodies, words split by
 * a backslash-newline). Each attack is paired with a harmless look-alike that must stay allowed;
 * the attacks also run in real bash in `bash-proofs.test.ts`, which shows they execute.
 */

const everything = ['allow Bash(*)', 'deny Bash(rm *)'];

export const evaluatedCodeCases: readonly CorpusCase[] = [
  bash('C1.01 test -v with a subscript runs it', "test -v 'a[$(touch marker)]'", 'ask'),
  bash('C1.01 look-alike: test -v of a plain name', 'test -v HOME', 'allow'),
  bash('C1.02 [ -v ] with a subscript runs it', "[ -v 'a[$(touch marker)]' ]", 'ask'),
  bash('C1.02 look-alike: [ -v ] and [ -f ] of plain words', '[ -v PATH ] && [ -f README.md ]', 'allow'),
  bash('C1.03 test -v inside a longer test expression', "test -n x -a -v 'a[$(touch marker)]'", 'ask'),
  bash('C1.04 printf -v with a subscript runs it', "printf -v 'a[$(touch marker)]' x", 'ask'),
  bash('C1.04 look-alike: printf of the same text as data', "printf '%s\\n' 'a[$(touch marker)]'", 'allow'),
  bash('C1.05 printf -v assigns a variable: not read-only', 'printf -v x hello', 'ask'),
  bash('C1.06 read into a subscript runs it', "read 'a[$(touch marker)]' <<< x", 'ask', {
    rules: ['allow Bash(read:*)'],
  }),
  bash('C1.06 look-alike: read into a plain name by rule', 'read -r line < README.md', 'allow', {
    rules: ['allow Bash(read:*)'],
  }),
  bash('C1.07 declare with a subscript runs it', "declare 'a[$(touch marker)]=x'", 'ask', {
    rules: ['allow Bash(declare:*)'],
  }),
  bash('C1.07 look-alike: declare of a plain name by rule', 'declare x=1', 'allow', {
    rules: ['allow Bash(declare:*)'],
  }),
  bash('C1.08 typeset with a subscript', "typeset 'a[$(rm -rf src)]=x'", 'deny', { rules: everything }),
  bash('C1.09 let with a subscript runs it', "let 'a[$(touch marker)]=1'", 'ask', { rules: ['allow Bash(let:*)'] }),
  bash('C1.09 look-alike: let of plain arithmetic by rule', "let 'x = 1 + 2'", 'allow', {
    rules: ['allow Bash(let:*)'],
  }),
  bash('C1.10 arithmetic expansion with a subscript', 'echo $(( a[$(touch marker)] ))', 'ask'),
  bash('C1.10 look-alike: plain arithmetic expansion', 'echo $(( 1 + 2 ))', 'allow'),
  bash('C1.11 arithmetic on a variable holding a subscript', "x='a[$(rm -rf src)]'; echo $((x))", 'deny', {
    rules: everything,
  }),
  bash('C1.11 look-alike: arithmetic on a number', 'x=5; echo $((x + 1))', 'allow', { rules: everything }),
  bash('C1.12 arithmetic on a variable printf -v set', "printf -v x 'a[$(rm -rf src)]'; echo $((x))", 'ask', {
    rules: everything,
  }),
  bash('C1.13 arithmetic on a variable read from input', "read -r x <<< 'a[$(rm -rf src)]'; echo $((x))", 'ask', {
    rules: everything,
  }),
  bash('C1.14 unset of a subscript runs it', "a=(1); unset 'a[$(touch marker)]'", 'ask', { rules: everything }),
  bash('C1.14 look-alike: unset of a plain name', 'unset FOO', 'allow', { rules: everything }),
  bash('C1.15 a nameref to a subscript runs it when used', "declare -n r='a[$(touch marker)]'; echo $r", 'ask', {
    rules: everything,
  }),
  bash('C1.15 look-alike: a nameref to a plain name', 'declare -n r=HOME', 'allow', { rules: everything }),
  bash('C1.16 an integer variable evaluates what is assigned', "declare -i x; x='a[$(touch marker)]'", 'ask', {
    rules: everything,
  }),
  bash('C1.16 look-alike: an integer variable set to a number', 'declare -i n=5', 'allow', { rules: everything }),
  bash('C1.17 declare re-reads a quoted array value', "declare -a a='([$(touch marker)]=1)'", 'ask', {
    rules: everything,
  }),
  bash('C1.17 look-alike: an array of plain words', 'declare -a a=(1 2) && b=(x y)', 'allow', { rules: everything }),
  bash('C1.18 an array element subscript runs it', "a=(['$(rm -rf src)']=1)", 'ask', { rules: everything }),
  bash('C1.19 an assignment to a subscript runs it', "a['$(rm -rf src)']=1", 'deny', { rules: everything }),
  bash('C1.20 an unquoted subscript in an assignment is checked by deny rules', 'a[$(rm -rf src)]=1', 'deny', {
    rules: everything,
  }),
  bash('C1.21 mapfile -C runs a callback', "mapfile -C 'rm -rf src #' -c 1 x < README.md", 'deny', {
    rules: everything,
  }),
  bash('C1.21 look-alike: mapfile without a callback', 'mapfile -t lines < README.md', 'allow', { rules: everything }),
  // Here-documents.
  bash('C1.30 unquoted here-document body substitution', 'cat <<EOF\n$(touch marker)\nEOF', 'ask'),
  bash('C1.30 look-alike: quoted here-document body is data', "cat <<'EOF'\n$(touch marker)\nEOF", 'allow'),
  bash('C1.31 look-alike: a variable in a here-document', 'cat <<EOF\nhello $USER\nEOF', 'allow'),
  bash('C1.32 here-document with backticks', 'cat <<EOF\n`touch marker`\nEOF', 'ask'),
  bash('C1.33 here-document with <<- and tabs', 'cat <<-EOF\n\t$(touch marker)\n\tEOF', 'ask'),
  bash('C1.34 a command after the here-document operator runs', 'cat <<EOF | touch marker\nx\nEOF', 'ask'),
  bash('C1.34 look-alike: a read-only pipe after the operator', 'cat <<EOF | grep x\nx\nEOF', 'allow'),
  bash('C1.35 deny rules see a command after the here-document operator', 'cat <<EOF && rm -rf src\nx\nEOF', 'deny', {
    rules: everything,
  }),
  bash(
    'C1.36 a delimiter line with a leading space does not end the body',
    'cat <<EOF\nx\n EOF\n$(touch marker)\nEOF',
    'ask',
  ),
  bash('C1.37 a backslash-newline inside the body joins $ and (', 'cat <<EOF\n$\\\n(touch marker)\nEOF', 'ask'),
  bash('C1.37 look-alike: the same body under a quoted delimiter', "cat <<'EOF'\n$\\\n(touch marker)\nEOF", 'allow'),
  bash('C1.38 a redirect after the here-document operator is checked', 'cat <<EOF > .bashrc\nx\nEOF', 'ask', {
    rules: ['allow Edit(**)'],
  }),
  // Backslash-newline.
  bash('C1.40 a backslash-newline joins a program name', 'r\\\nm -rf src', 'deny', { rules: everything }),
  bash('C1.41 a backslash-newline joins a word that runs', 'tou\\\nch marker', 'ask'),
  bash('C1.42 a backslash-newline in double quotes makes a substitution', 'echo "$\\\n(touch marker)"', 'ask'),
  bash('C1.43 a backslash-newline outside quotes makes a substitution', 'echo $\\\n(touch marker)', 'ask'),
  bash('C1.44 a comment does not continue onto the next line', '# note \\\ntouch marker', 'ask'),
  bash('C1.44 look-alike: a continued command line under its rule', 'npm test \\\n  --coverage', 'allow', {
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('C1.45 look-alike: a backslash-newline inside single quotes is data', "echo 'a\\\nb'", 'allow'),
];
