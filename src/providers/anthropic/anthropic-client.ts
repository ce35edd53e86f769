import Anthropic from '@anthropic-ai/sdk';
import { ToolplaneError } from '../../errors/index.js';
import { preparedBodyFetch } from '../prepared-body.js';
import type { RetryOptions } from '../retry-stream.js';

/** Settings of the Anthropic provider; each falls back to the variables of `env`, then to a default. */
export type AnthropicProviderOptions = {
  /** Default: `ANTHROPIC_API_KEY`. */
  readonly apiKey?: string;
  /** A bearer token instead of an API key. Default: `ANTHROPIC_AUTH_TOKEN`. */
  readonly authToken?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  readonly baseURL?: string;
  /** Model used when a request names none. Default: `ANTHROPIC_MODEL`, else `claude-sonnet-5-5`. */
  readonly defaultModel?: string;
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
  /** Beta header added when tools are deferred; `null` sends none. Default `TOOL_SEARCH_BETA`. */
  readonly toolSearchBeta?: string | null;
};

/** Anthropic's own API. */
const ANTHROPIC_API = 'https://api.anthropic.com';

/** The small model side requests use on Anthropic's own API. */
const SMALL_MODEL = 'claude-haiku-5-5';

/**
 * The SDK client, default and small model for `options`, credentials and base URL resolved from
 * the options, then `env` (`ANTHROPIC_MODEL`, `ANTHROPIC_DEFAULT_HAIKU_MODEL`,
 * `ANTHROPIC_SMALL_FAST_MODEL`). `sdkRetries` is handed to the SDK (the streaming provider passes
 * 0 and retries itself). Throws `PROVIDER_ERROR` when there is neither an API key nor a token.
 */
export function createAnthropicClient(
  options: AnthropicProviderOptions,
  settings: { readonly sdkRetries: number },
): { readonly client: Anthropic; readonly defaultModel: string; readonly smallModel: string } {
  const { env } = options;
  const apiKey = options.apiKey ?? env['ANTHROPIC_API_KEY'];
  const authToken = options.authToken ?? env['ANTHROPIC_AUTH_TOKEN'];
  if (!apiKey && !authToken) {
    throw new ToolplaneError(
      'PROVIDER_ERROR',
      'anthropic: no credentials; set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or pass apiKey',
    );
  }
  const baseURL = options.baseURL ?? (env['ANTHROPIC_BASE_URL'] || ANTHROPIC_API);
  const client = new Anthropic({
    apiKey: apiKey || null,
    authToken: authToken || null,
    baseURL,
    maxRetries: settings.sdkRetries,
    fetch: preparedBodyFetch,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
  });
  const defaultModel = options.defaultModel ?? (env['ANTHROPIC_MODEL'] || 'claude-sonnet-5-5');
  // Another server behind the Anthropic API may not serve the small model: its main model stands in.
  const smallModel =
    env['ANTHROPIC_DEFAULT_HAIKU_MODEL'] ||
    env['ANTHROPIC_SMALL_FAST_MODEL'] ||
    (baseURL.replace(/\/+$/, '') === ANTHROPIC_API ? SMALL_MODEL : defaultModel);
  return { client, defaultModel, smallModel };
}
