import type { HookConfig, McpToolHookConfig, ModelHookConfig } from '../contract/hook-config.js';
import { hookLabel } from '../contract/hook-config.js';
import type { CompiledMatcher } from './compile-matcher.js';
import type { CompiledHook } from './hook-registry.js';
import { hookTimeoutMs, type HookInput, type HookRun } from './hook-types.js';
import { capHookText, hookOutputSchema, parseHookStdout } from './parse-hook-output.js';

/**
 * What runs the hook types whose answer comes from outside the hook layer, given by the session:
 * a model or a read-only subagent (`prompt`, `agent`), and the session's MCP servers (`mcp_tool`).
 * Each resolves with the answer's text, or rejects saying why it could not be asked; the signal
 * aborts on the hook's timeout and when its event is cancelled.
 */
export type HookRunners = {
  readonly model?: (request: {
    readonly kind: 'prompt' | 'agent';
    /** The hook's prompt with the event's JSON in place of `$ARGUMENTS` (or after it). */
    readonly prompt: string;
    readonly model: string | undefined;
    readonly signal: AbortSignal;
  }) => Promise<string>;
  readonly mcpTool?: (request: {
    readonly server: string;
    readonly tool: string;
    readonly input: Record<string, unknown>;
    readonly hookInput: HookInput;
    readonly signal: AbortSignal;
  }) => Promise<{ readonly text: string; readonly isError: boolean }>;
};

/** Seconds a hook of each runner type may take when its config names no timeout. */
export const RUNNER_HOOK_TIMEOUT_SECONDS: Readonly<Record<'prompt' | 'agent' | 'mcp_tool', number>> = {
  prompt: 30,
  agent: 60,
  mcp_tool: 60,
};

type Outcome = Omit<HookRun, 'hook' | 'source' | 'failClosed'>;

/** Characters of one string of the event a judge sees; a longer one (a file's content) is cut, saying so. */
export const JUDGED_STRING_LIMIT = 20_000;

/** Characters of one value filled into an `mcp_tool` hook's input. */
const FILLED_VALUE_LIMIT = 100_000;

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters cut]`;
}

/** The event with every string cut to `limit`: a huge input cannot make the judge's request fail. */
function capped(value: unknown, limit: number): unknown {
  if (typeof value === 'string') return cut(value, limit);
  if (Array.isArray(value)) return value.map((item) => capped(item, limit));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, capped(item, limit)]));
  return value;
}

/**
 * The brief a `prompt` or `agent` hook's model gets: the hook's prompt with the event's JSON (its
 * long strings cut) where `$ARGUMENTS` is, or after it. The JSON is pasted as it is: `$$` or `$&`
 * in a command reach the judge unchanged.
 */
export function modelHookPrompt(prompt: string, input: HookInput): string {
  const json = JSON.stringify(capped(input, JUDGED_STRING_LIMIT), null, 2);
  return prompt.includes('$ARGUMENTS') ? prompt.replaceAll('$ARGUMENTS', () => json) : `${prompt}\n\n${json}`;
}

/** The value at a dotted path of the event's JSON (`tool_input.file_path`), or undefined. */
function valueAt(input: HookInput, path: string): unknown {
  let value: unknown = input;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return capped(value, FILLED_VALUE_LIMIT);
}

const PLACEHOLDER = /\$\{([\w.]+)\}/g;
const WHOLE_PLACEHOLDER = /^\$\{([\w.]+)\}$/;

/**
 * An `mcp_tool` hook's input with `${path}` filled from the event's JSON: a string that is one
 * placeholder takes the value itself (a number stays a number), one inside text takes its text
 * (JSON for objects), a path the event lacks becomes empty. Nothing is parsed again.
 */
export function fillToolInput(template: unknown, input: HookInput): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole !== null) return valueAt(input, whole[1]!) ?? '';
    return template.replace(PLACEHOLDER, (_, path: string) => {
      const value = valueAt(input, path);
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => fillToolInput(item, input));
  if (typeof template === 'object' && template !== null)
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillToolInput(value, input)]));
  return template;
}

/** Keys that make an object an answer: `ok`, or a field of the hook output shape. */
const ANSWER_KEYS = ['decision', 'continue', 'stopReason', 'systemMessage', 'hookSpecificOutput', 'reason'];

function isAnswer(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if ('ok' in value) return typeof value.ok === 'boolean';
  return ANSWER_KEYS.some((key) => key in value);
}

/**
 * The answer in a model's text: of the JSON objects in it (bare, or in code fences, among prose
 * or a quoted command), the last one that is an answer — a model that quotes the call before its
 * verdict is read by its verdict.
 */
function answerObject(text: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  let start = text.indexOf('{');
  while (start !== -1) {
    let end = text.indexOf('}', start);
    let next = -1;
    while (end !== -1) {
      try {
        const value: unknown = JSON.parse(text.slice(start, end + 1));
        if (isAnswer(value)) found = value;
        next = end + 1;
        break;
      } catch {
        end = text.indexOf('}', end + 1);
      }
    }
    start = text.indexOf('{', next === -1 ? start + 1 : next);
  }
  return found;
}

/**
 * Reads a model's answer: `{"ok": false, "reason"}` is a no — for PermissionRequest a deny, on any
 * other event what exit code 2 is for a command (a PreToolUse deny, a Stop that goes on, …);
 * `{"ok": true}` is no objection; otherwise the hook output shape. Anything else is an error,
 * which never allows anything.
 */
export function readModelAnswer(text: string, event: string): Outcome {
  const value = answerObject(text);
  if (value !== undefined && typeof value['ok'] === 'boolean') {
    const { ok, reason } = value as { ok: boolean; reason?: unknown };
    const said = typeof reason === 'string' && reason.trim() !== '' ? capHookText(reason.trim()) : undefined;
    if (ok) return { status: 'success' };
    const message = said ?? 'the model answered no and gave no reason';
    if (event === 'PermissionRequest')
      return {
        status: 'success',
        output: { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message } } },
      };
    return { status: 'blocking', message };
  }
  const parsed = value === undefined ? undefined : hookOutputSchema.safeParse(value);
  if (parsed?.success === true) return { status: 'success', output: parsed.data };
  const shown = text.trim().slice(0, 200);
  return {
    status: 'error',
    message: `answered with something that is not {"ok": …} nor the hook output shape: ${JSON.stringify(shown)}`,
  };
}

/** How an `mcp_tool` hook's tool answered: its text read like a command's stdout, a tool error a non-blocking error. */
function readToolAnswer(answer: { readonly text: string; readonly isError: boolean }): Outcome {
  if (answer.isError)
    return { status: 'error', message: `the tool answered with an error: ${capHookText(answer.text)}` };
  const parsed = parseHookStdout(answer.text);
  if (parsed.kind === 'json') return { status: 'success', output: parsed.output };
  if (parsed.kind === 'invalid') return { status: 'error', message: parsed.message };
  return parsed.kind === 'text' ? { status: 'success', text: parsed.text } : { status: 'success' };
}

/** Runs `ask` with the hook's time limit and the event's signal, turning how it ended into an outcome. */
async function bounded(
  signal: AbortSignal,
  timeoutMs: number,
  ask: (signal: AbortSignal) => Promise<Outcome>,
): Promise<Outcome> {
  const timer = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timer]);
  // A runner that ignores its signal must not hold the call: the limit ends the wait either way.
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error('aborted'));
    both.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([ask(both), aborted]);
    if (both.aborted) throw new Error('aborted');
    return outcome;
  } catch (error) {
    if (signal.aborted) return { status: 'cancelled', message: 'cancelled before it finished' };
    if (timer.aborted) return { status: 'timeout', message: `timed out after ${timeoutMs / 1000} s` };
    return {
      status: 'error',
      message: `could not be asked: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    both.removeEventListener('abort', onAbort);
  }
}

/** Why a runner hook cannot run in this session (the host gave no runner for its type), or undefined. */
export function runnerHookProblem(config: HookConfig, runners: HookRunners | undefined): string | undefined {
  if (config.type === 'prompt' || config.type === 'agent')
    return runners?.model === undefined ? `${config.type} hooks need a model, and this host gave none` : undefined;
  if (config.type === 'mcp_tool')
    return runners?.mcpTool === undefined ? 'mcp_tool hooks need MCP servers, and this session has none' : undefined;
  return undefined;
}

/**
 * Runs one `prompt`, `agent` or `mcp_tool` hook for one event. Every answer is marked `advisory`:
 * its allow grants nothing, since a model judged text the agent's own model may have written (a
 * prompt injection aimed at the judge must not open the gate), and an MCP tool's text often
 * carries what the call brought in (a file it read, a page, an echo of the input).
 */
export function runRunnerHook(
  config: ModelHookConfig | McpToolHookConfig,
  runners: HookRunners | undefined,
  input: HookInput,
  signal: AbortSignal,
): Promise<Omit<HookRun, 'source' | 'failClosed'>> {
  const hook = hookLabel(config);
  const timeoutMs = hookTimeoutMs(config.timeout, RUNNER_HOOK_TIMEOUT_SECONDS[config.type]);
  const problem = runnerHookProblem(config, runners);
  if (problem !== undefined) return Promise.resolve({ hook, status: 'error', message: problem });
  if (config.type === 'mcp_tool') {
    const call = runners!.mcpTool!;
    const toolInput = fillToolInput(config.input ?? {}, input) as Record<string, unknown>;
    return bounded(signal, timeoutMs, async (bound) =>
      readToolAnswer(
        await call({ server: config.server, tool: config.tool, input: toolInput, hookInput: input, signal: bound }),
      ),
    ).then((outcome) => ({ hook, advisory: true, ...outcome }));
  }
  const ask = runners!.model!;
  const prompt = modelHookPrompt(config.prompt, input);
  return bounded(signal, timeoutMs, async (bound) =>
    readModelAnswer(
      await ask({ kind: config.type, prompt, model: config.model, signal: bound }),
      input.hook_event_name,
    ),
  ).then((outcome) => ({ hook, advisory: true, ...outcome }));
}

/** A `prompt`, `agent` or `mcp_tool` hook ready to run. */
export function compileRunnerHook(
  config: ModelHookConfig | McpToolHookConfig,
  source: HookRun['source'],
  matcher: CompiledMatcher,
  runners: HookRunners | undefined,
  root: string | undefined,
): CompiledHook {
  const failClosed = config.failClosed ?? false;
  const label = hookLabel(config);
  return {
    label,
    source,
    matcher,
    dedupeKey: `${config.type} ${JSON.stringify(config)}`,
    ...(config.if === undefined ? {} : { condition: { rule: config.if, root } }),
    ...(config.async === true ? { async: true } : {}),
    async run(input, signal) {
      return { source, failClosed, ...(await runRunnerHook(config, runners, input, signal)) };
    },
  };
}
