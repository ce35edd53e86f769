import type { SettingsFile } from './parse-settings-text.js';

/** How model requests are retried, from the settings files (`maxRetries`, `streamIdleTimeoutMs`). */
export type ModelRequestSettings = {
  /** Retries of a failed model request; unset: the provider's default. */
  readonly maxRetries?: number;
  /** Ms a response may go without an event before it is abandoned and retried; unset: the default. */
  readonly streamIdleTimeoutMs?: number;
};

/**
 * Merges the keys over the sources, highest precedence first: the first source that sets a key
 * decides it. Every source counts, a restricted project's too: these keys change how long the
 * agent waits for the model, not what it may do.
 */
export function mergeModelRequestSettings(
  sources: readonly { readonly settings: SettingsFile }[],
): ModelRequestSettings {
  const maxRetries = sources.find((loaded) => loaded.settings.maxRetries !== undefined)?.settings.maxRetries;
  const idle = sources.find((loaded) => loaded.settings.streamIdleTimeoutMs !== undefined)?.settings;
  return {
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(idle?.streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs: idle.streamIdleTimeoutMs }),
  };
}
