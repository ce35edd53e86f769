import { describeCause, ProviderError } from '../providers/provider-error.js';
import type { LoopEvent } from '../session/index.js';

/** What a message about a failed model request names: the provider, the model, and where they were set. */
export type ModelErrorContext = {
  /** `anthropic`, `openai`, `scripted`, … */
  readonly provider: string;
  readonly model: string;
  /** The base URL in use, when one was set (`--base-url`, `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`). */
  readonly baseUrl?: string;
  /** Where `baseUrl` was set: `--base-url` or the variable's name. */
  readonly baseUrlFrom?: string;
  /** Whether the terminal UI has a `/model` command to offer. */
  readonly modelCommand?: boolean;
};

type Variables = {
  readonly key: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly defaultUrl: string;
};

/** The environment variables of a provider, and the URL it uses when none is set. */
function variablesOf(provider: string): Variables {
  return provider === 'openai'
    ? {
        key: 'OPENAI_API_KEY',
        baseUrl: 'OPENAI_BASE_URL',
        model: 'OPENAI_MODEL',
        defaultUrl: 'https://api.openai.com/v1',
      }
    : {
        key: 'ANTHROPIC_API_KEY',
        baseUrl: 'ANTHROPIC_BASE_URL',
        model: 'ANTHROPIC_MODEL',
        defaultUrl: 'https://api.anthropic.com',
      };
}

/**
 * The context of a CLI run: the provider's base URL from `--base-url`, else its variable.
 * `env` is the run's environment.
 */
export function modelErrorContextOf(options: {
  readonly provider: string;
  readonly model: string;
  readonly baseUrlFlag: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}): ModelErrorContext {
  const variable = variablesOf(options.provider).baseUrl;
  const fromEnv = options.env[variable];
  const base = { provider: options.provider, model: options.model };
  if (options.baseUrlFlag) return { ...base, baseUrl: options.baseUrlFlag, baseUrlFrom: '--base-url' };
  if (fromEnv) return { ...base, baseUrl: fromEnv, baseUrlFrom: variable };
  return base;
}

/** What a failed connection's causes say, in a few words (`connection refused`, `host not found`). */
function connectionFailure(text: string): string | undefined {
  if (/ECONNREFUSED/.test(text)) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'host not found';
  if (/ECONNRESET|socket hang up|other side closed/i.test(text)) return 'the connection was reset';
  if (/ETIMEDOUT|timed? ?out/i.test(text)) return 'the connection timed out';
  return undefined;
}

/** Where requests went, and how to point them elsewhere. */
function whereTo(context: ModelErrorContext): string {
  const variables = variablesOf(context.provider);
  return context.baseUrl === undefined
    ? `${variables.defaultUrl} (the default; ${variables.baseUrl} sets another)`
    : `${context.baseUrl} (${context.baseUrlFrom ?? variables.baseUrl})`;
}

function attemptsNote(error: ProviderError): string {
  return error.attempts > 1 ? ` after ${error.attempts} attempts` : '';
}

/**
 * The message people read for a failed model request: a refused key names the variable to fix,
 * an unknown model says how to choose another, a failed connection names the URL, the variable
 * that set it and asks whether the server is running. Other errors keep their own message.
 * Pure.
 */
export function describeModelError(error: Error, context: ModelErrorContext): string {
  if (!(error instanceof ProviderError)) return error.message;
  const variables = variablesOf(context.provider);
  const prefix = `${error.provider}: `;
  if (error.kind === 'http' && error.status === 401)
    return `${prefix}the API key was refused (${error.detail}). Check ${variables.key}: it must hold a valid key for ${whereTo(context)}.`;
  if (error.kind === 'http' && error.status === 403)
    return `${prefix}the API key may not do this (${error.detail}). Check ${variables.key} and the key's permissions.`;
  if (error.kind === 'http' && error.status === 404) {
    const ways = ['--model NAME', ...(context.modelCommand ? ['/model'] : []), variables.model];
    return `${prefix}the model "${context.model}" was not found at ${whereTo(context)} (${error.detail}). Choose another with ${ways.join(', ')}.`;
  }
  if (error.kind === 'connection') {
    const reason = connectionFailure(describeCause(error)) ?? describeCause(error.cause ?? error);
    const ask = context.baseUrl === undefined ? 'Is the network up?' : 'Is the server running?';
    return `${prefix}could not connect to ${whereTo(context)}${attemptsNote(error)}: ${reason}. ${ask}`;
  }
  return error.message;
}

/** Why a model request is being tried again, in a few words for people: `the API is overloaded (HTTP 529)`. */
export function describeRetryReason(event: Extract<LoopEvent, { type: 'retry' }>, context: ModelErrorContext): string {
  const { status } = event;
  if (status === 529) return 'the API is overloaded (HTTP 529)';
  if (status === 429) return 'rate limited (HTTP 429)';
  if (status !== undefined) return `the server answered HTTP ${status}`;
  if (/no event from the API/.test(event.message)) return 'the response stalled';
  const failure = connectionFailure(event.message);
  if (failure !== undefined) {
    const where = context.baseUrl ?? variablesOf(context.provider).defaultUrl;
    return `${failure} at ${where}${context.baseUrl === undefined ? '' : ': is the server running?'}`;
  }
  return event.message;
}
