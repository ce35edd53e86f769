import type { SettingsFile, SettingsWarning } from './parse-settings-text.js';
import type { LoadedSource } from './settings-source.js';

export type ModelPriceSettings = NonNullable<SettingsFile['modelPrices']>;

/**
 * `modelPrices` merged over the sources, highest precedence first: the first source that prices a
 * model decides its price. A project's own files cannot set prices: a price of 0 there would make
 * `--max-budget-usd` meaningless, so they are ignored with a warning; so are restricted sources'.
 */
export function mergeModelPriceSettings(
  sources: readonly Pick<LoadedSource, 'source' | 'label' | 'settings' | 'restriction'>[],
  warnings: SettingsWarning[],
): ModelPriceSettings {
  const merged: Record<string, ModelPriceSettings[string]> = {};
  for (const loaded of sources) {
    const prices = loaded.settings.modelPrices;
    // A file held after a tool call wrote it, or a scope --setting-sources left out, sets no price.
    if (prices === undefined || loaded.restriction !== undefined) continue;
    if (loaded.source === 'projectSettings' || loaded.source === 'localSettings') {
      warnings.push({
        file: loaded.label,
        message:
          'modelPrices is ignored in a project settings file: set prices in your user settings or with --settings',
      });
      continue;
    }
    for (const [model, price] of Object.entries(prices)) merged[model] ??= price;
  }
  return merged;
}
