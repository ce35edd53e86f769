import { describe, expect, it } from 'vitest';
import { createPriceTable, LIST_PRICES } from './model-prices.js';

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe('the price table', () => {
  const table = createPriceTable();

  it('prices a dated id, a cloud id and an alias by their model row, never a neighbour', () => {
    expect(table.priceOf('claude-sonnet-5-5-20260901')?.price).toBe(LIST_PRICES['claude-sonnet-5-5']);
    expect(table.priceOf('us.anthropic.claude-opus-4-1-20250805-v1:0')?.price).toBe(LIST_PRICES['claude-opus-4-1']);
    expect(table.priceOf('claude-opus-4-20250514')?.price).toBe(LIST_PRICES['claude-opus-4']);
    // A prefix that does not end at a separator is another model: 4-10 is not 4-1.
    expect(table.priceOf('claude-opus-4-10')?.price).toBe(LIST_PRICES['claude-opus-4']);
    expect(table.priceOf('claude-haiku-4-5')?.basis).toBe('list');
  });

  it('a local model has no price and costs 0', () => {
    expect(table.priceOf('qwen3-coder:30b')).toBeUndefined();
    expect(table.costOf('qwen3-coder:30b', million)).toBe(0);
    expect(table.priceOf('claude-sonnetx')).toBeUndefined();
  });

  it('charges input, output, cache reads and cache writes at their own rates', () => {
    // Sonnet 5.5: $2 in, $10 out, $0.2 read, $2.5 write per million.
    expect(table.costOf('claude-sonnet-5-5', million)).toBeCloseTo(12, 10);
    expect(
      table.costOf('claude-sonnet-5-5', {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 1_000_000,
        cacheCreationInputTokens: 2_000_000,
      }),
    ).toBeCloseTo(0.2 + 5, 10);
  });

  it('settings prices win over the list, and give unset cache rates from the input rate', () => {
    const own = createPriceTable({ 'claude-sonnet-5-5': { input: 1, output: 1 }, 'my-local': { input: 4, output: 8 } });
    expect(own.priceOf('claude-sonnet-5-5-20260901')).toEqual({ price: { input: 1, output: 1 }, basis: 'settings' });
    expect(own.costOf('my-local', { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 1_000_000 })).toBeCloseTo(
      0.4,
      10,
    );
    expect(
      own.costOf('my-local', { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 1_000_000 }),
    ).toBeCloseTo(5, 10);
    expect(own.priceOf('claude-opus-5')?.basis).toBe('list');
  });
});
