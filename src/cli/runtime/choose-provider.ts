import type { ModelProvider } from '../../contract/provider.js';
import type { ModelRequestSettings } from '../../settings/model-request-settings.js';
import type { ProviderName, RunArguments } from '../args.js';

/** A provider could not be set up; the message says how to fix it. Exit code 2. */
export class ProviderSetupError extends Error {
  override readonly name = 'ProviderSetupError';
}

/** The message shown when no provider is configured. */
export const NO_PROVIDER_MESSAGE = `No model provider is configured. Set one of:
  ANTHROPIC_API_KEY=sk-ant-…            (Anthropic; ANTHROPIC_BASE_URL for a proxy)
  OPENAI_BASE_URL=http://127.0.0.1:11434/v1  (any OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio; OPENAI_API_KEY if it needs one)
or pass --provider anthropic|openai|scripted (with --script FILE for scripted).
To try toolplane offline, run the demo: npm run demo (or toolplane demo).`;

/** Which provider a run uses, and why. */
export type ProviderChoice = { readonly name: ProviderName; readonly baseUrl: string | undefined };

/**
 * Picks the provider: `--provider` when given; else `ANTHROPIC_API_KEY` selects Anthropic and
 * `OPENAI_BASE_URL` selects an OpenAI-compatible server. With neither, a clear error.
 */
export function chooseProvider(options: {
  readonly provider: ProviderName | undefined;
  readonly baseUrl: string | undefined;
  readonly script: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}): ProviderChoice {
  const { env } = options;
  const name: ProviderName | undefined =
    options.provider ??
    (options.script ? 'scripted' : env.ANTHROPIC_API_KEY ? 'anthropic' : env.OPENAI_BASE_URL ? 'openai' : undefined);
  if (!name) throw new ProviderSetupError(NO_PROVIDER_MESSAGE);
  if (name === 'scripted' && !options.script)
    throw new ProviderSetupError(
      '--provider scripted needs --script FILE (a JSONL script of assistant turns, or a recorded transcript).',
    );
  if (name === 'anthropic' && !env.ANTHROPIC_API_KEY && !env.ANTHROPIC_AUTH_TOKEN) {
    throw new ProviderSetupError(
      'The Anthropic provider needs ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the environment.',
    );
  }
  const baseUrl =
    options.baseUrl ??
    (name === 'anthropic' ? env.ANTHROPIC_BASE_URL : name === 'openai' ? env.OPENAI_BASE_URL : undefined);
  return { name, baseUrl };
}

/** How the provider retries, from the flags first, then the settings; unset keys keep the defaults. */
export function modelRequestOptions(
  args: Pick<RunArguments, 'maxRetries' | 'streamIdleTimeoutMs'>,
  settings: ModelRequestSettings,
): ModelRequestSettings {
  const maxRetries = args.maxRetries ?? settings.maxRetries;
  const streamIdleTimeoutMs = args.streamIdleTimeoutMs ?? settings.streamIdleTimeoutMs;
  return {
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs }),
  };
}

/**
 * Creates the chosen provider. The SDK of the provider is imported only here, on demand, so a run
 * loads one SDK and no other (cold start); the import starts before `requests` (from the
 * settings) is known.
 */
export async function createProvider(
  choice: ProviderChoice,
  options: {
    readonly script: string | undefined;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly model: string | undefined;
    readonly requests?: Promise<ModelRequestSettings>;
  },
): Promise<ModelProvider> {
  const shared = async () => {
    const requests = (await options.requests) ?? {};
    return {
      env: options.env,
      ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
      ...(options.model ? { defaultModel: options.model } : {}),
      ...(requests.maxRetries === undefined ? {} : { retry: { maxRetries: requests.maxRetries } }),
      ...(requests.streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs: requests.streamIdleTimeoutMs }),
    };
  };
  switch (choice.name) {
    case 'anthropic': {
      const { createAnthropicProvider } = await import('../../providers/anthropic/anthropic-provider.js');
      return createAnthropicProvider(await shared());
    }
    case 'openai': {
      const { createOpenAIProvider } = await import('../../providers/openai/openai-provider.js');
      return createOpenAIProvider(await shared());
    }
    case 'scripted': {
      const { createScriptedProvider } = await import('../../providers/scripted/scripted-provider.js');
      return createScriptedProvider({ path: options.script! });
    }
  }
}
