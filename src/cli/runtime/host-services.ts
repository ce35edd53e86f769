import type { ModelProvider } from '../../contract/provider.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { PermissionEngine } from '../../permissions/permission-engine.js';
import { READ_DENIED_PATH } from '../../tools/fs-helpers/read-denied-path.js';
import { createModelPromptApplier, WEB_FETCH_PROMPT_APPLIER } from '../../tools/web-fetch/prompt-applier.js';
import { webSearchService } from '../../tools/web-search/web-search-service.js';
import type { chooseProvider } from './choose-provider.js';
import type { RuntimeOptions } from './create-runtime.js';

/** The services only a host can give: denied paths for Read, WebFetch's model, Anthropic's web search. */
export async function hostServices(options: {
  readonly engine: PermissionEngine;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly choice: ReturnType<typeof chooseProvider>;
  readonly env: RuntimeOptions['env'];
  /** The retry budget, for the SDK's own retries of requests that do not stream (web search). */
  readonly maxRetries: number | undefined;
}): Promise<ServiceRegistry> {
  const { engine, provider, model, choice, env } = options;
  const services = createServices()
    .set(READ_DENIED_PATH, (path: string) => engine.pathDenial(path, 'read') !== undefined)
    .set(WEB_FETCH_PROMPT_APPLIER, createModelPromptApplier({ provider, model }));
  if (choice.name === 'anthropic' && provider.capabilities.webSearch) {
    const { createAnthropicWebSearch } = await import('../../providers/anthropic/anthropic-web-search.js');
    const backend = createAnthropicWebSearch({
      env,
      ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
      defaultModel: model,
      ...(options.maxRetries === undefined ? {} : { retry: { maxRetries: options.maxRetries } }),
    });
    services.set(webSearchService, { search: async (request, searchSignal) => backend.search(request, searchSignal) });
  }
  return services;
}
