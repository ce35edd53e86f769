import { describe, expect, it } from 'vitest';
import { reasonForPeople, withoutModelAdvice } from './reason-for-people.js';

describe('reasonForPeople', () => {
  it('calls the person "you", with or without their message', () => {
    expect(reasonForPeople({ kind: 'approver', message: 'not on main' })).toBe('you: not on main');
    expect(reasonForPeople({ kind: 'approver' })).toBe('you');
  });
  it('keeps a rule with its file, and drops advice meant for the model', () => {
    expect(reasonForPeople({ kind: 'rule', rule: 'Bash(rm:*)', source: 'cli', file: '/p/s.json' })).toBe(
      'rule Bash(rm:*) from /p/s.json',
    );
    expect(
      reasonForPeople({
        kind: 'hook',
        hook: 'guard.sh',
        message: 'rm is blocked. Do not retry this call; take another approach, or ask the user to change the rule.',
      }),
    ).toBe('hook guard.sh: rm is blocked.');
  });
});

describe('withoutModelAdvice', () => {
  it('leaves text without such advice as it is', () => {
    expect(withoutModelAdvice('the tool failed: no such file')).toBe('the tool failed: no such file');
  });
  it('drops the sentence wherever it is', () => {
    expect(
      withoutModelAdvice(
        'Permission to use Bash has been denied by rule Bash(rm:*) from cli settings. Do not retry this call; take another approach, or ask the user to change the rule.',
      ),
    ).toBe('Permission to use Bash has been denied by rule Bash(rm:*) from cli settings.');
  });
});
