import { describe, expect, it } from 'vitest';
import { describeStatus, formatTokens, formatUsd } from './describe-status.js';

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

describe('the status line with tokens and cost', () => {
  const status = {
    provider: 'anthropic',
    model: 'claude-x',
    mode: 'default',
    sessionId: 's-1',
    cwd: '/p',
    contextTokens: 1_000,
    contextWindow: 200_000,
  } as const;
  it('shows the tokens used and the cost after the mode', () => {
    expect(describeStatus({ ...status, tokensUsed: 12_345, costUsd: 0.0421 })).toBe(
      'anthropic/claude-x · mode default · 12k tokens · $0.04 · context 1.0k/200k (1%) · session s-1',
    );
  });
  it('a model without a price shows tokens only', () => {
    const line = describeStatus({ ...status, tokensUsed: 950 });
    expect(line).toContain('950 tokens · context');
    expect(line).not.toContain('$');
  });
  it.each([
    [0, '$0.00'],
    [0.00042, '$0.0004'],
    [0.0042, '$0.0042'],
    [0.42, '$0.42'],
    [12.3, '$12.30'],
  ])('formatUsd(%d) → %s', (usd, shown) => expect(formatUsd(usd)).toBe(shown));
});
