import type { HttpHookConfig } from '../contract/hook-config.js';
import type { CompiledMatcher } from './compile-matcher.js';
import type { CompiledHook } from './hook-registry.js';
import { DEFAULT_HOOK_TIMEOUT_SECONDS, hookTimeoutMs, type HookRun } from './hook-types.js';
import { parseHookStdout } from './parse-hook-output.js';

/** What an HTTP hook's request came to. */
export type HttpHookRun =
  | { readonly kind: 'answered'; readonly status: number; readonly body: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

/** Largest response body read, in characters. */
const MAX_BODY_CHARS = 1_000_000;

/**
 * Replaces `$VAR` and `${VAR}` in a header value with the variable's value, but only for the
 * variables the hook lists in `allowedEnvVars`; any other reference is left as written, so a hook
 * cannot read the environment it was not given.
 */
export function expandHeader(
  value: string,
  allowed: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      return allowed.includes(name) ? (env[name] ?? '') : whole;
    },
  );
}

/**
 * POSTs the hook input as JSON to the hook's URL (the same JSON a command hook gets on stdin) and
 * returns the status and body. Never throws: time-outs, aborts and network failures are results.
 */
export async function runHttpHook(options: {
  readonly config: HttpHookConfig;
  readonly body: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}): Promise<HttpHookRun> {
  if (options.signal.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(options.config.headers ?? {})) {
    headers[name] = expandHeader(value, options.config.allowedEnvVars ?? [], options.env);
  }
  try {
    const response = await fetch(options.config.url, {
      method: 'POST',
      headers,
      body: options.body,
      signal: controller.signal,
      redirect: 'error',
    });
    const text = await response.text();
    return {
      kind: 'answered',
      status: response.status,
      body: text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text,
    };
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    if (options.signal.aborted) return { kind: 'cancelled' };
    return {
      kind: 'failed',
      message:
        error instanceof Error
          ? error.cause instanceof Error
            ? `${error.message}: ${error.cause.message}`
            : error.message
          : String(error),
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** An http hook ready to run: the event's JSON POSTed, the body read like stdout, a non-2xx answer a non-blocking error. */
export function compileHttpHook(
  config: HttpHookConfig,
  source: HookRun['source'],
  matcher: CompiledMatcher,
  env: Readonly<Record<string, string>>,
  root: string | undefined,
): CompiledHook {
  const timeoutMs = hookTimeoutMs(config.timeout, DEFAULT_HOOK_TIMEOUT_SECONDS);
  const failClosed = config.failClosed ?? false;
  const base = { hook: config.url, source, failClosed };
  return {
    label: config.url,
    source,
    matcher,
    dedupeKey: `http ${config.url}`,
    ...(config.if === undefined ? {} : { condition: { rule: config.if, root } }),
    ...(config.async === true ? { async: true } : {}),
    async run(input, signal) {
      const run = await runHttpHook({ config, body: JSON.stringify(input), env, timeoutMs, signal });
      switch (run.kind) {
        case 'cancelled':
          return { ...base, status: 'cancelled', message: 'cancelled before it finished' };
        case 'timeout':
          return { ...base, status: 'timeout', message: `timed out after ${timeoutMs / 1000} s` };
        case 'failed':
          return { ...base, status: 'error', message: `request failed: ${run.message}` };
        case 'answered': {
          // A non-2xx answer is a non-blocking error, as in the reference; a 2xx body is read like stdout.
          if (run.status < 200 || run.status > 299)
            return { ...base, status: 'error', message: `answered HTTP ${run.status}` };
          const parsed = parseHookStdout(run.body);
          if (parsed.kind === 'json') return { ...base, status: 'success', output: parsed.output };
          if (parsed.kind === 'invalid') return { ...base, status: 'error', message: parsed.message };
          return parsed.kind === 'text'
            ? { ...base, status: 'success', text: parsed.text }
            : { ...base, status: 'success' };
        }
      }
    },
  };
}
