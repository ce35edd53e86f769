import { describe, expect, it } from 'vitest';
import { expandTemplate, splitArguments } from './expand-template.js';

describe('expandTemplate', () => {
  it('puts the whole argument text and the words in, quotes grouping words', () => {
    expect(expandTemplate('Fix #$1 with priority $2: $ARGUMENTS', '12 "very high"')).toEqual([
      { kind: 'text', text: 'Fix #12 with priority very high: 12 "very high"' },
    ]);
    expect(expandTemplate('Only $1 and $3.', 'a')).toEqual([{ kind: 'text', text: 'Only a and .' }]);
  });

  it('adds the arguments after a template that uses none, and nothing without arguments', () => {
    expect(expandTemplate('Review.', 'src/a.ts')).toEqual([
      { kind: 'text', text: 'Review.' },
      { kind: 'text', text: '\n\nARGUMENTS: src/a.ts' },
    ]);
    expect(expandTemplate('Review.', '')).toEqual([{ kind: 'text', text: 'Review.' }]);
  });

  it('finds shell commands at line start or after a space, with the arguments in them', () => {
    expect(expandTemplate('Status:\n!`git status`\nLog: !`git log -n $1`\nnot!`this`', '3')).toEqual([
      { kind: 'text', text: 'Status:\n' },
      { kind: 'shell', command: 'git status' },
      { kind: 'text', text: '\nLog: ' },
      { kind: 'shell', command: 'git log -n 3' },
      { kind: 'text', text: '\nnot!`this`' },
    ]);
  });

  it('never makes a shell command out of an argument', () => {
    expect(expandTemplate('Say $ARGUMENTS', '!`touch pwned`')).toEqual([{ kind: 'text', text: 'Say !`touch pwned`' }]);
  });

  it('splits arguments on spaces, keeping quoted words whole', () => {
    expect(splitArguments(` a 'b c'  "d e" f `)).toEqual(['a', 'b c', 'd e', 'f']);
  });
});
