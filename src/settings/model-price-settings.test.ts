import { describe, expect, it } from 'vitest';
import { mergeModelPriceSettings } from './model-price-settings.js';
import type { SettingsWarning } from './parse-settings-text.js';

describe('modelPrices in settings', () => {
  it('takes each model from the highest source that prices it, and refuses a project file', () => {
    const warnings: SettingsWarning[] = [];
    const merged = mergeModelPriceSettings(
      [
        { source: 'cli', label: '--settings', settings: { modelPrices: { a: { input: 1, output: 1 } } } },
        {
          source: 'projectSettings',
          label: '.toolplane/settings.json',
          settings: { modelPrices: { b: { input: 0, output: 0 } } },
        },
        {
          source: 'userSettings',
          label: '~/.toolplane/settings.json',
          settings: { modelPrices: { a: { input: 9, output: 9 }, c: { input: 2, output: 3 } } },
        },
      ],
      warnings,
    );
    expect(merged).toEqual({ a: { input: 1, output: 1 }, c: { input: 2, output: 3 } });
    // A user file a tool call rewrote (held) sets no price: the model cannot lift its own budget.
    const held = mergeModelPriceSettings(
      [
        {
          source: 'userSettings',
          label: '~/.toolplane/settings.json',
          settings: { modelPrices: { a: { input: 0, output: 0 } } },
          restriction: { reason: 'held', remedy: 'confirm it' },
        },
      ],
      [],
    );
    expect(held).toEqual({});
    expect(warnings).toEqual([{ file: '.toolplane/settings.json', message: expect.stringMatching(/ignored/) }]);
  });
});
