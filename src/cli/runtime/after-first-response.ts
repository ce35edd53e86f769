import type { ModelProvider } from '../../contract/provider.js';

/**
 * `provider`, calling `start` once: when the first event of its first response arrives, or that
 * response fails, whichever comes first. By then the request is on the wire, so work that `start`
 * begins (loading the shell parser) no longer delays it. Everything else is `provider`'s own.
 */
export function afterFirstResponse(provider: ModelProvider, start: () => void): ModelProvider {
  let started = false;
  const begin = (): void => {
    if (started) return;
    started = true;
    start();
  };
  return {
    name: provider.name,
    defaultModel: provider.defaultModel,
    capabilities: provider.capabilities,
    stream(request, signal) {
      if (started) return provider.stream(request, signal);
      return (async function* () {
        try {
          for await (const event of provider.stream(request, signal)) {
            begin();
            yield event;
          }
        } finally {
          begin();
        }
      })();
    },
  };
}
