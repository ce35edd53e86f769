import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import type { IdleWatch } from '../idle-watch.js';
import { streamWithRetries } from '../retry-stream.js';
import { createAnthropicClient, type AnthropicProviderOptions } from './anthropic-client.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { TOOL_SEARCH_BETA, toAnthropicParams } from './to-anthropic-params.js';

export type { AnthropicProviderOptions } from './anthropic-client.js';

/**
 * A {@link ModelProvider} for Anthropic's Messages API through the official SDK. Streams every
 * response; retries (its own, honouring `retry-after`; a stream idle or cut counts) only before any
 * tool call of the response reached the caller;
 * every failure is a `ProviderError` (code `PROVIDER_ERROR`) with the HTTP status and the API's
 * message. Throws `PROVIDER_ERROR` at creation when there is neither an API key nor a token.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  // Retries are ours: they must stop once streamed output has reached the caller.
  const { client, defaultModel } = createAnthropicClient(options, { sdkRetries: 0 });
  const toolSearchBeta = options.toolSearchBeta === undefined ? TOOL_SEARCH_BETA : options.toolSearchBeta;
  const name = 'anthropic';

  async function* attempt(request: ModelRequest, watch: IdleWatch): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { params, betas } = toAnthropicParams(request, { model: request.model || defaultModel, toolSearchBeta });
    const events = await watch.guard(
      client.messages.create(params, {
        signal: watch.signal,
        ...(betas.length === 0 ? {} : { headers: { 'anthropic-beta': betas.join(',') } }),
      }),
    );
    yield* readAnthropicStream(watch.wrap(events), { provider: name });
  }

  return {
    name,
    defaultModel,
    capabilities: { toolReference: true, webSearch: true },
    stream(request, signal) {
      return streamWithRetries({
        provider: name,
        retry: options.retry,
        ...(options.streamIdleTimeoutMs === undefined ? {} : { idleMs: options.streamIdleTimeoutMs }),
        signal,
        open: (inner) => attempt(request, inner),
      });
    },
  };
}
