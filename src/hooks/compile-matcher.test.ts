import { describe, expect, it } from 'vitest';
import { compileMatcher } from './compile-matcher.js';
import { capHookText, parseHookStdout } from './parse-hook-output.js';

describe('compileMatcher', () => {
  it('matches everything for *, empty and absent', () => {
    for (const matcher of [undefined, '', '*', ' * ']) expect(compileMatcher(matcher).test('Anything')).toBe(true);
  });

  it('treats names with | , and spaces as exact names', () => {
    const matcher = compileMatcher('Edit|Write, Read');
    expect(['Edit', 'Write', 'Read'].map(matcher.test)).toEqual([true, true, true]);
    expect(matcher.test('NotebookEdit')).toBe(false);
    expect(compileMatcher('Bash').test('BashOutput')).toBe(false);
  });

  it('treats anything else as an unanchored regular expression', () => {
    expect(compileMatcher('Edit.*').test('NotebookEdit')).toBe(true);
    expect(compileMatcher('^Edit$').test('NotebookEdit')).toBe(false);
    const mcp = compileMatcher('mcp__github__.*');
    expect(mcp.test('mcp__github__create_issue')).toBe(true);
    expect(mcp.test('mcp__gitlab__x')).toBe(false);
  });

  it('reports an invalid expression, which then matches nothing', () => {
    const matcher = compileMatcher('Bash(');
    expect(matcher.test('Bash(')).toBe(false);
    expect(matcher.error).toContain('not a valid regular expression');
  });
});

describe('parseHookStdout', () => {
  it('reads JSON only when it starts with {', () => {
    expect(parseHookStdout('  \n')).toEqual({ kind: 'empty' });
    expect(parseHookStdout('all good\n')).toEqual({ kind: 'text', text: 'all good' });
    expect(parseHookStdout('[1]')).toEqual({ kind: 'text', text: '[1]' });
    expect(parseHookStdout(' {"continue": false, "other": 1}')).toMatchObject({
      kind: 'json',
      output: { continue: false },
    });
  });

  it('says what is wrong with garbage or wrongly shaped JSON', () => {
    expect(parseHookStdout('{not json')).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('not valid JSON') as string,
    });
    expect(parseHookStdout('{"hookSpecificOutput":{"permissionDecision":"maybe"}}')).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('hookSpecificOutput.permissionDecision') as string,
    });
  });

  it('caps long text', () => {
    const capped = capHookText('x'.repeat(10_005));
    expect(capped.startsWith('x'.repeat(10_000))).toBe(true);
    expect(capped).toContain('5 more characters cut');
    expect(capHookText('short')).toBe('short');
  });
});
