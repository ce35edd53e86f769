import { describe, expect, it } from 'vitest';
import { describeStatus, formatTokens } from './describe-status.js';

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [9_500, '9.5k'],
    [123_456, '123k'],
    [1_200_000, '1.2M'],
  ])('%d → %s', (tokens, shown) => expect(formatTokens(tokens)).toBe(shown));
});

describe('describeStatus', () => {
  const status = {
    provider: 'anthropic',
    model: 'claude-x',
    mode: 'acceptEdits',
    sessionId: 's-1',
    cwd: '/p',
    contextTokens: 50_000,
    contextWindow: 200_000,
  } as const;
  it('shows provider/model, mode, context used with its share, and the session', () => {
    expect(describeStatus(status)).toBe('anthropic/claude-x · mode acceptEdits · context 50k/200k (25%) · session s-1');
  });
  it('an unknown window shows 0%', () => {
    expect(describeStatus({ ...status, contextWindow: 0 })).toContain('(0%)');
  });
});
