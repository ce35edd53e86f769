import { describe, expect, it } from 'vitest';
import { createRunAccounting, createSpendingMeter } from './run-accounting.js';

const costOf = (model: string, usage: { readonly inputTokens: number; readonly outputTokens: number }) =>
  model === 'paid' ? (usage.inputTokens + usage.outputTokens) / 1_000 : 0;

describe('run accounting', () => {
  it('adds usage and cost per model, and the time of every request, answered or not', () => {
    const accounting = createRunAccounting({ costOf });
    accounting.response('paid', { usage: { inputTokens: 100, outputTokens: 10 }, stopReason: 'tool_use' }, 40);
    accounting.response('free', { usage: { inputTokens: 5, outputTokens: 5, cacheReadInputTokens: 7 } }, 10);
    accounting.waited(25);
    const snapshot = accounting.snapshot();
    expect(snapshot.usage).toEqual({
      inputTokens: 105,
      outputTokens: 15,
      cacheReadInputTokens: 7,
      cacheCreationInputTokens: 0,
    });
    expect(snapshot.modelUsage['paid']).toEqual({
      usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      costUsd: 0.11,
    });
    expect(snapshot.modelUsage['free']?.costUsd).toBe(0);
    expect(snapshot.costUsd).toBeCloseTo(0.11, 10);
    expect(snapshot.apiDurationMs).toBe(75);
    // The last response that gave a stop reason.
    expect(snapshot.stopReason).toBe('tool_use');
  });

  it('is over budget once what every run on the shared meter spent reaches the cap', () => {
    const meter = createSpendingMeter();
    const earlier = createRunAccounting({ costOf, meter });
    earlier.response('paid', { usage: { inputTokens: 100, outputTokens: 0 } }, 1);
    const accounting = createRunAccounting({ costOf, maxUsd: 0.2, meter });
    expect(accounting.overBudget()).toBe(false);
    // A subagent's run, charged to the same meter as it goes.
    const subagent = createRunAccounting({ costOf, maxUsd: 0.2, meter });
    subagent.response('paid', { usage: { inputTokens: 50, outputTokens: 0 } }, 1);
    expect(accounting.overBudget()).toBe(false);
    accounting.response('paid', { usage: { inputTokens: 50, outputTokens: 0 } }, 1);
    expect(accounting.overBudget()).toBe(true);
    expect(subagent.overBudget()).toBe(true);
    expect(meter.spentUsd()).toBeCloseTo(0.2, 10);
    expect(accounting.snapshot().costUsd).toBeCloseTo(0.05, 10);
    expect(meter.byModel()['paid']?.usage.inputTokens).toBe(200);
  });

  it('without a meter, counts the run alone against the cap', () => {
    const accounting = createRunAccounting({ costOf, maxUsd: 0.1 });
    accounting.response('paid', { usage: { inputTokens: 99, outputTokens: 0 } }, 1);
    expect(accounting.overBudget()).toBe(false);
    accounting.response('paid', { usage: { inputTokens: 1, outputTokens: 0 } }, 1);
    expect(accounting.overBudget()).toBe(true);
  });

  it('has no budget without costs, and a snapshot does not change with later responses', () => {
    const accounting = createRunAccounting(undefined);
    const before = accounting.snapshot();
    accounting.response('paid', { usage: { inputTokens: 1, outputTokens: 1 } }, 1);
    expect(accounting.overBudget()).toBe(false);
    expect(before.modelUsage).toEqual({});
    expect(accounting.snapshot().costUsd).toBe(0);
  });

  it('under a budget, a model without a price gets no request (a switch to a local model mid-session)', () => {
    const accounting = createRunAccounting({ costOf, maxUsd: 1, canPrice: (model) => model === 'paid' });
    expect(accounting.overBudget('paid')).toBe(false);
    expect(accounting.cannotPrice('local')).toBe(true);
    expect(accounting.overBudget('local')).toBe(true);
    // Without a budget nothing needs a price.
    const free = createRunAccounting({ costOf, canPrice: () => false });
    expect(free.overBudget('local')).toBe(false);
  });
});
