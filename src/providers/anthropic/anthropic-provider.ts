import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import type { IdleWatch } from '../idle-watch.js';
import { streamWithRetries } from '../retry-stream.js';
import { createAnthropicClient, type AnthropicProviderOptions } from './anthropic-client.js';
import { preparedBodyFetchOptions } from '../prepared-body.js';
import { createAnthropicBodyEncoder } from './anthropic-body.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { TOOL_SEARCH_BETA } from './to-anthropic-params.js';

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
  const { client, defaultModel, smallModel } = createAnthropicClient(options, { sdkRetries: 0 });
  const toolSearchBeta = options.toolSearchBeta === undefined ? TOOL_SEARCH_BETA : options.toolSearchBeta;
  const name = 'anthropic';
  const encode = createAnthropicBodyEncoder();

  async function* attempt(request: ModelRequest, watch: IdleWatch): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { params, betas, body } = encode(request, { model: request.model || defaultModel, toolSearchBeta });
    // The client's fetch sends the prepared bytes in place of `params`, whose messages are empty.
    const events = await watch.guard(
      client.messages.create(params, {
        signal: watch.signal,
        fetchOptions: preparedBodyFetchOptions(body),
        ...(betas.length === 0 ? {} : { headers: { 'anthropic-beta': betas.join(',') } }),
      }),
    );
    yield* readAnthropicStream(watch.wrap(events), { provider: name });
  }

  return {
    name,
    defaultModel,
    smallModel,
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
