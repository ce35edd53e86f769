import OpenAI from 'openai';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import type { IdleWatch } from '../idle-watch.js';
import { streamWithRetries, type RetryOptions } from '../retry-stream.js';
import { preparedBodyFetch, preparedBodyFetchOptions } from '../prepared-body.js';
import { createOpenAIBodyEncoder } from './openai-body.js';
import { readOpenAIStream } from './read-openai-stream.js';
import type { MaxTokensField } from './to-openai-params.js';

/** Settings of the OpenAI-compatible provider; each falls back to the variables of `env`, then a default. */
export type OpenAIProviderOptions = {
  /** Default: `OPENAI_API_KEY`, else a placeholder (local servers such as Ollama need none). */
  readonly apiKey?: string;
  /** Default: `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. For Ollama: `http://127.0.0.1:11434/v1`. */
  readonly baseURL?: string;
  /** Model used when a request names none. Default: `OPENAI_MODEL`, else `gpt-4.1-mini`. */
  readonly defaultModel?: string;
  /** Name reported as `provider.name` and in errors. Default `openai`. */
  readonly name?: string;
  /** Where the variables above are read; the host passes its environment (`{}` reads none). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Retries of rate limits, overload, server and connection errors, cut and idle streams. Default: 10 from 500 ms. */
  readonly retry?: RetryOptions;
  /** Time a response may go without an event before it is abandoned and retried, in ms. Default 90,000. */
  readonly streamIdleTimeoutMs?: number;
  /** Time limit of one attempt, in ms. Default: the SDK's (10 minutes). */
  readonly timeoutMs?: number;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default `max_tokens`, which compatible servers take; OpenAI's reasoning models want `max_completion_tokens`. */
  readonly maxTokensField?: MaxTokensField;
  /** Ask for usage in the stream (`stream_options.include_usage`). Default true; turn off for servers that reject it. */
  readonly streamUsage?: boolean;
};

/** API key sent when none is configured; local servers ignore it, and the SDK refuses to run without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/**
 * A {@link ModelProvider} for OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp
 * server, LM Studio) through the official SDK. Streams every response; retries (its own,
 * honouring `retry-after`; a stream idle or cut counts) only before any tool call reached the caller; every failure is a
 * `ProviderError` (code `PROVIDER_ERROR`) with the HTTP status and the server's message.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const { env } = options;
  const client = new OpenAI({
    apiKey: options.apiKey ?? (env['OPENAI_API_KEY'] || PLACEHOLDER_API_KEY),
    baseURL: options.baseURL ?? (env['OPENAI_BASE_URL'] || 'https://api.openai.com/v1'),
    // Retries are ours: they must stop once streamed output has reached the caller.
    maxRetries: 0,
    fetch: preparedBodyFetch,
    // Ignore OPENAI_ORG_ID / OPENAI_PROJECT_ID from the process: `env` is the only source.
    organization: env['OPENAI_ORG_ID'] ?? null,
    project: env['OPENAI_PROJECT_ID'] ?? null,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
  });
  const name = options.name ?? 'openai';
  const defaultModel = options.defaultModel ?? (env['OPENAI_MODEL'] || 'gpt-4.1-mini');
  const maxTokensField = options.maxTokensField ?? 'max_tokens';
  const streamUsage = options.streamUsage ?? true;
  const encode = createOpenAIBodyEncoder();

  async function* attempt(request: ModelRequest, watch: IdleWatch): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { params, body } = encode(request, { model: request.model || defaultModel, maxTokensField, streamUsage });
    // The client's fetch sends the prepared bytes in place of `params`, whose messages are empty.
    const chunks = await watch.guard(
      client.chat.completions.create(params, { signal: watch.signal, fetchOptions: preparedBodyFetchOptions(body) }),
    );
    yield* readOpenAIStream(watch.wrap(chunks), { provider: name });
  }

  return {
    name,
    defaultModel,
    capabilities: { toolReference: false, webSearch: false },
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
