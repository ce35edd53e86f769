import type { ModelProvider } from '../../contract/provider.js';
import type { ModelRequestSettings } from '../../settings/model-request-settings.js';
import { createProvider, modelRequestOptions, type ProviderChoice } from './choose-provider.js';
import type { RuntimeOptions } from './create-runtime.js';
import { loadPermissions } from './load-permissions.js';
import type { SettingsGuard } from './settings-guard.js';

/**
 * Starts loading the settings and the provider side by side: the provider's SDK is imported while
 * the settings load, and the provider is made once they tell its retry budget and idle limit
 * (flags first). `guard` is where the session's settings watch goes once it exists: saved rules
 * are reported to it.
 */
export function startSettingsAndProvider(
  options: RuntimeOptions & { readonly signal: AbortSignal },
  choice: ProviderChoice,
): {
  readonly guard: { current?: SettingsGuard };
  readonly permissions: ReturnType<typeof loadPermissions>;
  readonly requests: Promise<ModelRequestSettings>;
  readonly provider: Promise<ModelProvider>;
} {
  const { args, env } = options;
  const guard: { current?: SettingsGuard } = {};
  const permissions = loadPermissions({
    ...options,
    onRuleSaved: (saved) => guard.current?.recordSavedRule(saved) ?? Promise.resolve(undefined),
  });
  // A settings failure surfaces where the permissions are awaited; the provider then is not used.
  const requests = permissions.then(
    ({ settings }) => modelRequestOptions(args, settings.modelRequests),
    () => ({}),
  );
  const provider = createProvider(choice, { script: args.script, env, model: args.model, requests });
  return { guard, permissions, requests, provider };
}
