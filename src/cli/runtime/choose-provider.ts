import type { ModelProvider } from '../../contract/provider.js';
import type { ProviderName } from '../args.js';

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

/**
 * Creates the chosen provider. The SDK of the provider is imported only here, on demand, so a run
 * loads one SDK and no other (cold start).
 */
export async function createProvider(
  choice: ProviderChoice,
  options: {
    readonly script: string | undefined;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly model: string | undefined;
  },
): Promise<ModelProvider> {
  switch (choice.name) {
    case 'anthropic': {
      const { createAnthropicProvider } = await import('../../providers/anthropic/anthropic-provider.js');
      return createAnthropicProvider({
        env: options.env,
        ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
        ...(options.model ? { defaultModel: options.model } : {}),
      });
    }
    case 'openai': {
      const { createOpenAIProvider } = await import('../../providers/openai/openai-provider.js');
      return createOpenAIProvider({
        env: options.env,
        ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
        ...(options.model ? { defaultModel: options.model } : {}),
      });
    }
    case 'scripted': {
      const { createScriptedProvider } = await import('../../providers/scripted/scripted-provider.js');
      return createScriptedProvider({ path: options.script! });
    }
  }
}
