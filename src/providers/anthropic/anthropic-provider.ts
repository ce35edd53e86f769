import Anthropic from '@anthropic-ai/sdk';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import { ToolplaneError } from '../../errors/index.js';
import { streamWithRetries, type RetryOptions } from '../retry-stream.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { TOOL_SEARCH_BETA, toAnthropicParams } from './to-anthropic-params.js';

/** Settings of the Anthropic provider; each falls back to the environment, then to a default. */
export type AnthropicProviderOptions = {
  /** Default: `ANTHROPIC_API_KEY`. */
  readonly apiKey?: string;
  /** A bearer token instead of an API key. Default: `ANTHROPIC_AUTH_TOKEN`. */
  readonly authToken?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  readonly baseURL?: string;
  /** Model used when a request names none. Default: `ANTHROPIC_MODEL`, else `claude-sonnet-4-5`. */
  readonly defaultModel?: string;
  /** Where the variables above are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Retries of rate limits, overload, server and connection errors. Default: 4 retries from 500 ms. */
  readonly retry?: RetryOptions;
  /** Time limit of one attempt, in ms. Default: the SDK's (10 minutes). */
  readonly timeoutMs?: number;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Beta header added when tools are deferred; `null` sends none. Default {@link TOOL_SEARCH_BETA}. */
  readonly toolSearchBeta?: string | null;
};

/**
 * A {@link ModelProvider} for Anthropic's Messages API through the official SDK. Streams every
 * response; retries (its own, honouring `retry-after`) only before any event reached the caller;
 * every failure is a `ProviderError` (code `PROVIDER_ERROR`) with the HTTP status and the API's
 * message. Throws `PROVIDER_ERROR` at creation when there is neither an API key nor a token.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): ModelProvider {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env['ANTHROPIC_API_KEY'];
  const authToken = options.authToken ?? env['ANTHROPIC_AUTH_TOKEN'];
  if (!apiKey && !authToken) {
    throw new ToolplaneError(
      'PROVIDER_ERROR',
      'anthropic: no credentials; set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or pass apiKey',
    );
  }
  const client = new Anthropic({
    apiKey: apiKey || null,
    authToken: authToken || null,
    baseURL: options.baseURL ?? (env['ANTHROPIC_BASE_URL'] || 'https://api.anthropic.com'),
    // Retries are ours: they must stop once streamed output has reached the caller.
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
  });
  const defaultModel = options.defaultModel ?? (env['ANTHROPIC_MODEL'] || 'claude-sonnet-4-5');
  const toolSearchBeta = options.toolSearchBeta === undefined ? TOOL_SEARCH_BETA : options.toolSearchBeta;
  const name = 'anthropic';

  async function* attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { params, betas } = toAnthropicParams(request, { model: request.model || defaultModel, toolSearchBeta });
    const events = await client.messages.create(params, {
      signal,
      ...(betas.length === 0 ? {} : { headers: { 'anthropic-beta': betas.join(',') } }),
    });
    yield* readAnthropicStream(events, { provider: name });
  }

  return {
    name,
    defaultModel,
    capabilities: { toolReference: true, webSearch: true },
    stream(request, signal) {
      return streamWithRetries({ provider: name, retry: options.retry, signal, open: (inner) => attempt(request, inner) });
    },
  };
}
