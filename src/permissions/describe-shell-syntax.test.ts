import { describe, expect, it } from 'vitest';
import { describeShellSyntax } from './describe-shell-syntax.js';

describe('describeShellSyntax', () => {
  it('names a known construct as people know it', () => {
    expect(describeShellSyntax('for_statement')).toBe('a `for` loop, which toolplane cannot check ahead');
    expect(describeShellSyntax('test_command')).toBe('a `[[ … ]]` test, which toolplane cannot check ahead');
  });
  it('spells out the node of another construct without underscores', () => {
    expect(describeShellSyntax('brace_expression')).toBe(
      'shell syntax toolplane cannot check ahead (brace expression)',
    );
  });
});
