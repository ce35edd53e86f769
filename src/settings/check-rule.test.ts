import { describe, expect, it } from 'vitest';
import { checkRule, ruleToolName } from './check-rule.js';
import { splitToolList } from './split-tool-list.js';

const known = new Set(['Bash', 'Read', 'Edit', 'Write', 'Glob', 'WebFetch']);

describe('checkRule', () => {
  it('keeps rules naming known tools and mcp tools', () => {
    expect(checkRule({ rule: 'Bash(git *)', behavior: 'allow', knownToolNames: known })).toEqual({ verdict: 'keep' });
    expect(checkRule({ rule: 'mcp__github__create_issue', behavior: 'allow', knownToolNames: known })).toEqual({
      verdict: 'keep',
    });
    expect(checkRule({ rule: 'Anything', behavior: 'deny' })).toEqual({ verdict: 'keep' });
  });

  it('warns about an unknown tool name and keeps the rule', () => {
    expect(checkRule({ rule: 'Bsh(ls)', behavior: 'deny', knownToolNames: known })).toEqual({
      verdict: 'keep-with-warning',
      message: 'rule "Bsh(ls)" names an unknown tool "Bsh"',
    });
  });

  it('skips allow globs except after a literal mcp__server__ prefix', () => {
    for (const rule of ['*', 'B*', 'mcp__*']) {
      expect(checkRule({ rule, behavior: 'allow', knownToolNames: known }).verdict).toBe('skip');
      expect(checkRule({ rule, behavior: 'deny', knownToolNames: known }).verdict).toBe('keep');
    }
    expect(checkRule({ rule: 'mcp__github__*', behavior: 'allow' }).verdict).toBe('keep');
  });

  it('says that Write and Glob path rules are never consulted', () => {
    const check = checkRule({ rule: 'Write(/src/**)', behavior: 'deny', knownToolNames: known });
    expect(check).toMatchObject({
      verdict: 'keep-with-warning',
      message: expect.stringContaining('Edit(/src/**)') as string,
    });
    expect(checkRule({ rule: 'Write', behavior: 'deny', knownToolNames: known }).verdict).toBe('keep');
  });

  it('skips an empty rule and flags one without a tool name', () => {
    expect(checkRule({ rule: '  ', behavior: 'deny' }).verdict).toBe('skip');
    expect(checkRule({ rule: '(x)', behavior: 'deny' }).verdict).toBe('keep-with-warning');
    expect(ruleToolName('Bash(x)')).toBe('Bash');
    expect(ruleToolName('(x)')).toBeUndefined();
  });
});

describe('splitToolList', () => {
  it('splits on commas and spaces outside parentheses', () => {
    expect(splitToolList('Bash(git log:*) Read,Edit  ,  mcp__a__b')).toEqual([
      'Bash(git log:*)',
      'Read',
      'Edit',
      'mcp__a__b',
    ]);
    expect(splitToolList('')).toEqual([]);
    expect(splitToolList('Bash(a (b) c),Read')).toEqual(['Bash(a (b) c)', 'Read']);
  });
});
