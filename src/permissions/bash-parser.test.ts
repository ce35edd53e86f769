import { describe, expect, test } from 'vitest';
import { initShellParser, isShellParserReady, parseShell } from './bash-parser.js';

const options = { cwd: '/w/p', homeDir: '/h' };
const words = (command: string) =>
  parseShell(command, options).commands.map((item) => item.words.map((word) => word.value));

describe('parseShell', () => {
  test('refuses to run before the grammar is loaded', () => {
    expect(isShellParserReady()).toBe(false);
    expect(() => parseShell('ls', options)).toThrow(/initShellParser/);
  });

  test('loads once; repeated initialisation is harmless', async () => {
    await Promise.all([initShellParser(), initShellParser()]);
    expect(isShellParserReady()).toBe(true);
  });

  test('splits every separator into simple commands', () => {
    expect(words('a; b | c && d || e & f\ng')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
  });

  test('finds commands inside substitutions, subshells and groups', () => {
    const script = parseShell('echo $(id) `whoami` <(ls) && (pwd; { date; })', options);
    expect(script.commands.map((item) => [item.words[0]?.value, item.nested])).toEqual([
      ['id', true],
      ['whoami', true],
      ['ls', true],
      ['echo', false],
      ['pwd', false],
      ['date', false],
    ]);
    expect(script.concerns).toEqual([]);
  });

  test('removes quotes and escapes as bash does', () => {
    expect(words(`'r'"m" \\-rf "a b" $'\\x41' 'it'\\''s'`)).toEqual([['rm', '-rf', 'a b', 'A', "it's"]]);
  });

  test('marks expansions and globs', () => {
    const [command] = parseShell('ls $HOME "$X/y" *.ts \\*.md', options).commands;
    expect(command?.words.map((word) => [word.static, word.glob])).toEqual([
      [true, false],
      [false, false],
      [false, false],
      [true, true],
      [true, false],
    ]);
  });

  test('records assignments and redirections', () => {
    const script = parseShell('A=1 B="$x" cmd < in > out 2>&1 2>/dev/null', options);
    expect(script.commands[0]?.assignments.map((item) => item.name)).toEqual(['A', 'B']);
    expect(script.redirects.map((item) => [item.operator, item.target.value, item.writes])).toEqual([
      ['<', 'in', false],
      ['>', 'out', true],
      ['>', '/dev/null', true],
    ]);
  });

  test('tracks cd: both folders are possible afterwards, unknown after a computed cd', () => {
    const script = parseShell('cd sub && ls; cd $X; ls', options);
    expect(script.commands.map((item) => item.cwds)).toEqual([
      ['/w/p'],
      ['/w/p', '/w/p/sub'],
      ['/w/p', '/w/p/sub'],
      undefined,
    ]);
  });

  test('cd inside a subshell, a pipeline or the background does not leak', () => {
    const script = parseShell('(cd /etc); cd /tmp | cat; cd /x & ls', options);
    expect(script.commands.at(-1)?.cwds).toEqual(['/w/p']);
  });

  test.each([
    ['ls &&& pwd', /could not be parsed/],
    ['echo ${x@P}', /parameter expansion/],
    ['echo $[1+1]', /\$\[…\]/],
    ['echo $((a[1]))', /subscript/],
    ['cat $IFS', /IFS/],
    ['if true; then ls; fi', /an `if` statement, which toolplane cannot check ahead/],
    ['[[ $a =~ b ]]', /a `\[\[ … \]\]` test/],
    ['ls\rrm', /control/],
    ['ls\u2029rm', /control/],
    ['ls\u200brm', /control/],
    [`echo ${'x'.repeat(10_001)}`, /longer than 10000/],
  ])('%j is a concern', (command, reason) => {
    const script = parseShell(command, options);
    expect(script.concerns.join('; ')).toMatch(reason);
  });

  test('a line break the grammar reads as a space still ends the command', () => {
    const script = parseShell('ls | ls | ls\nrm -rf x && pwd', options);
    expect(script.commands.map((item) => item.words.map((word) => word.value))).toEqual([
      ['ls'],
      ['ls'],
      ['ls'],
      ['rm', '-rf', 'x'],
      ['pwd'],
    ]);
    expect(script.concerns.join('; ')).toMatch(/line break/);
    expect(parseShell('echo a \\\nb', options).concerns).toEqual([]);
  });

  test("after such a line break a pipeline's `!` is negation, not the command (found by the property test)", () => {
    const words = (command: string) =>
      parseShell(command, options).commands.map((item) => item.words.map((word) => word.value));
    expect(words('ls | ls | ls\n! rm -rf build && ls')).toEqual([
      ['ls'],
      ['ls'],
      ['ls'],
      ['rm', '-rf', 'build'],
      ['ls'],
    ]);
    // The look-alike: a lone `!` stays a word, and the line is still not vouched for.
    expect(words('ls | ls | ls\n!')).toEqual([['ls'], ['ls'], ['ls'], ['!']]);
    // A quoted or escaped `!` is a program of that name, never dropped.
    expect(words("'!' ls")).toEqual([['!', 'ls']]);
    expect(words('\\! ls -la')).toEqual([['!', 'ls', '-la']]);
    expect(parseShell('ls | ls | ls\n! rm -rf build && ls', options).concerns.join('; ')).toMatch(/line break/);
  });

  test('commands are still extracted from syntax it does not vouch for', () => {
    expect(words('while true; do rm -rf x; done').flat()).toContain('rm');
    expect(words('ls\rrm -rf x').flat()).toContain('rm');
  });
});
