import { describe, expect, it } from 'vitest';
import { createPriceTable } from '../providers/model-prices.js';
import { sessionSpending } from './session-spending.js';

describe('sessionSpending', () => {
  const prices = createPriceTable();
  const usage = { inputTokens: 1000, outputTokens: 500, cacheReadInputTokens: 100 };
  it('totals the tokens of every model and their cost when all have a price', () => {
    expect(
      sessionSpending({
        byModel: { 'claude-sonnet-5-5': { usage, costUsd: 0.007 }, 'claude-haiku-5-5': { usage, costUsd: 0.001 } },
        currentModel: 'claude-sonnet-5-5',
        prices,
      }),
    ).toEqual({ tokensUsed: 3200, costUsd: 0.008 });
  });
  it('leaves the cost out when a model used has no price', () => {
    expect(
      sessionSpending({
        byModel: { 'claude-sonnet-5-5': { usage, costUsd: 0.007 }, 'local-llama': { usage, costUsd: 0 } },
        currentModel: 'claude-sonnet-5-5',
        prices,
      }),
    ).toEqual({ tokensUsed: 3200 });
  });
  it('before any request, prices by the current model', () => {
    expect(sessionSpending({ byModel: {}, currentModel: 'claude-sonnet-5-5', prices })).toEqual({
      tokensUsed: 0,
      costUsd: 0,
    });
    expect(sessionSpending({ byModel: {}, currentModel: 'gpt-local', prices })).toEqual({ tokensUsed: 0 });
  });
});
