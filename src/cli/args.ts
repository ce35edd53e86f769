import { readFileSync } from 'node:fs';
import { PERMISSION_MODES, type PermissionMode } from '../contract/permission.js';
import { RUN_FLAGS } from './flag-table.js';
import {
  agentsObject,
  oneOf,
  positiveAmount,
  settingSourceList,
  splitToolArguments,
  toolList,
  uuid,
  wholeNumber,
} from './flag-values.js';
import { FlagError, parseFlags, type FlagValue } from './parse-flags.js';
import type { SettingScope } from '../settings/load-settings.js';
import { UsageError } from './usage-error.js';

export { UsageError } from './usage-error.js';
export { splitToolArguments } from './flag-values.js';

/** Output formats of headless runs, as the reference names them. */
export type OutputFormat = 'text' | 'json' | 'stream-json';
export type InputFormat = 'text' | 'stream-json';
export type ProviderName = 'anthropic' | 'openai' | 'scripted';

/** The command line of a run (not a subcommand). */
export type RunArguments = {
  readonly prompt: string | undefined;
  readonly print: boolean;
  readonly outputFormat: OutputFormat;
  /** `--input-format`: the prompt as text (default) or stream-json messages on stdin. */
  readonly inputFormat: InputFormat;
  readonly verbose: boolean;
  readonly includePartialMessages: boolean;
  readonly includeHookEvents: boolean;
  /** `--await-initialize`: with stream-json input, wait for the initialize request. */
  readonly awaitInitialize: boolean;
  /** `--replay-user-messages`: with stream-json input and output, echo the user messages. */
  readonly replayUserMessages: boolean;
  /** `--permission-prompt-tool`: who answers permission prompts (`stdio`: the driving program). */
  readonly permissionPromptTool: string | undefined;
  readonly model: string | undefined;
  /** `--fallback-model`: the model a run continues on when its own stays overloaded; never equal to `model`. */
  readonly fallbackModel: string | undefined;
  /** `--permission-mode`, or bypassPermissions for `--dangerously-skip-permissions`. */
  readonly permissionMode: PermissionMode | undefined;
  /** `--allow-dangerously-skip-permissions`: a later mode switch may reach bypassPermissions. */
  readonly allowDangerouslySkipPermissions: boolean;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  /** `--tools`: the built-in tools there are; undefined = all ("default" or absent), [] = none. */
  readonly tools: readonly string[] | undefined;
  readonly settings: string | undefined;
  /** `--setting-sources`: the settings files read; undefined = all of them. */
  readonly settingSources: readonly SettingScope[] | undefined;
  /** Each a file path or inline JSON (text starting with `{`). */
  readonly mcpConfig: readonly string[];
  /** `--strict-mcp-config`: only the servers of `mcpConfig`. */
  readonly strictMcpConfig: boolean;
  readonly maxTurns: number | undefined;
  /** `--max-budget-usd`: dollars the run may cost. */
  readonly maxBudgetUsd: number | undefined;
  /** `--max-thinking-tokens`: extended thinking budget; 0 = off. */
  readonly maxThinkingTokens: number | undefined;
  /** Retries of a failed model request (`--max-retries`); else the settings', else the provider's default. */
  readonly maxRetries: number | undefined;
  /** Ms a response may go without an event before it is abandoned and retried (`--stream-idle-timeout`). */
  readonly streamIdleTimeoutMs: number | undefined;
  /** `--system-prompt` or the text of `--system-prompt-file`: replaces toolplane's system prompt. */
  readonly systemPrompt: string | undefined;
  /** `--append-system-prompt`, then the text of `--append-system-prompt-file`. */
  readonly appendSystemPrompt: string | undefined;
  readonly jsonSchema: string | undefined;
  /** `--agents`: subagents by name, as given (not yet used). */
  readonly agents: Readonly<Record<string, unknown>> | undefined;
  readonly resume: string | undefined;
  readonly continue: boolean;
  /** `--fork-session`: with resume/continue, the history goes on under a new session id. */
  readonly forkSession: boolean;
  /** `--resume-session-at`: resume the history up to and including this assistant message. */
  readonly resumeSessionAt: string | undefined;
  /** `--session-id`: the new session's id (a UUID, lower-cased). */
  readonly sessionId: string | undefined;
  /** False with `--no-session-persistence`: no transcript is written. */
  readonly persistSession: boolean;
  readonly addDir: readonly string[];
  readonly provider: ProviderName | undefined;
  readonly baseUrl: string | undefined;
  readonly script: string | undefined;
  /** `--debug`, `-d` or `--debug-to-stderr`. */
  readonly debug: boolean;
  /** `--debug api,hooks` / `--debug '!api'`: the categories logged; undefined = all. */
  readonly debugFilter: string | undefined;
  readonly debugToStderr: boolean;
  readonly help: boolean;
  readonly version: boolean;
  readonly cwd: string | undefined;
  /** `--trust-project`: the working folder's own settings apply in full for this run. */
  readonly trustProject: boolean;
  /** One line each, printed on stderr at start: flags accepted but ignored, and the like. */
  readonly notices: readonly string[];
};

/** Why `--json-schema` is refused without `-p`. */
export const JSON_SCHEMA_NEEDS_PRINT =
  '--json-schema needs -p/--print: structured output is for non-interactive runs; the terminal UI has none.';

/** Reads the flags' values by name, typed by kind. */
function reader(values: ReadonlyMap<string, FlagValue>) {
  return {
    flag: (name: string) => values.has(name),
    text: (name: string) => {
      const value = values.get(name);
      return typeof value === 'string' ? value : undefined;
    },
    list: (name: string) => {
      const value = values.get(name);
      return Array.isArray(value) ? (value as readonly string[]) : undefined;
    },
  };
}

function readTextFile(path: string | undefined, flag: string): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
    throw new UsageError(`${flag}: cannot read ${path}${code}.`);
  }
}

function exclusive(present: (name: string) => boolean, a: string, b: string): void {
  if (present(a) && present(b)) throw new UsageError(`--${a} and --${b} cannot be used together.`);
}

/** Parses the arguments of a run. Throws {@link UsageError} on unknown flags or bad values. */
export function parseRunArguments(argv: readonly string[]): RunArguments {
  let parsed;
  try {
    parsed = parseFlags(argv, RUN_FLAGS);
  } catch (error) {
    if (error instanceof FlagError) throw new UsageError(error.message);
    throw error;
  }
  const { flag, text, list } = reader(parsed.values);
  const notices: string[] = RUN_FLAGS.filter((spec) => spec.ignored === true && flag(spec.name)).map(
    (spec) => `--${spec.name} has no meaning here; ignored`,
  );
  // Not built yet. Ignoring it would break what the host relies on (the history it resumes), so it
  // is refused; the others only lose a convenience.
  if (flag('resume-session-at')) throw new UsageError('--resume-session-at is not supported by toolplane yet.');
  if (flag('no-session-persistence') && (flag('resume') || flag('continue')))
    throw new UsageError(
      '--no-session-persistence starts a session that is not kept: it cannot go with --resume or --continue.',
    );
  for (const name of ['fallback-model', 'max-thinking-tokens'])
    if (flag(name)) notices.push(`--${name} is not supported by toolplane yet; ignored`);
  for (const name of ['include-partial-messages', 'include-hook-events'])
    if (flag(name) && text('output-format') !== 'stream-json')
      notices.push(`--${name} has meaning only with --output-format stream-json; ignored`);
  exclusive(flag, 'resume', 'continue');
  exclusive(flag, 'system-prompt', 'system-prompt-file');
  if (flag('session-id') && (flag('resume') || flag('continue')) && !flag('fork-session'))
    throw new UsageError('--session-id names a new session: with --resume or --continue it needs --fork-session.');
  if (flag('fork-session') && !flag('resume') && !flag('continue'))
    throw new UsageError('--fork-session needs --resume or --continue: it forks the session they pick.');
  if (flag('resume-session-at') && !flag('resume'))
    throw new UsageError('--resume-session-at needs --resume: it cuts the history of the session resumed.');
  const modeFlag = oneOf(text('permission-mode'), PERMISSION_MODES, '--permission-mode');
  if (flag('dangerously-skip-permissions') && modeFlag !== undefined && modeFlag !== 'bypassPermissions')
    throw new UsageError(`--dangerously-skip-permissions and --permission-mode ${modeFlag} disagree; give one.`);
  const model = text('model');
  const fallbackModel = text('fallback-model');
  if (fallbackModel !== undefined && fallbackModel === model)
    throw new UsageError('--fallback-model must differ from --model: it is what the run falls back to.');
  const debugValue = parsed.values.get('debug');
  const appended = [
    text('append-system-prompt'),
    readTextFile(text('append-system-prompt-file'), '--append-system-prompt-file'),
  ];
  const appendParts = appended.filter((part): part is string => part !== undefined);
  return {
    prompt: parsed.positionals.length > 0 ? parsed.positionals.join(' ') : undefined,
    print: flag('print'),
    outputFormat: oneOf(text('output-format'), ['text', 'json', 'stream-json'] as const, '--output-format') ?? 'text',
    inputFormat: oneOf(text('input-format'), ['text', 'stream-json'] as const, '--input-format') ?? 'text',
    verbose: flag('verbose'),
    includePartialMessages: flag('include-partial-messages'),
    includeHookEvents: flag('include-hook-events'),
    awaitInitialize: flag('await-initialize'),
    replayUserMessages: flag('replay-user-messages'),
    permissionPromptTool: text('permission-prompt-tool'),
    model,
    fallbackModel,
    permissionMode: flag('dangerously-skip-permissions') ? 'bypassPermissions' : modeFlag,
    allowDangerouslySkipPermissions: flag('allow-dangerously-skip-permissions'),
    allowedTools: splitToolArguments(list('allowed-tools')),
    disallowedTools: splitToolArguments(list('disallowed-tools')),
    tools: toolList(list('tools')),
    settings: text('settings'),
    settingSources: settingSourceList(text('setting-sources')),
    mcpConfig: list('mcp-config') ?? [],
    strictMcpConfig: flag('strict-mcp-config'),
    maxTurns: wholeNumber(text('max-turns'), { flag: '--max-turns', min: 1 }),
    maxBudgetUsd: positiveAmount(text('max-budget-usd'), '--max-budget-usd'),
    maxThinkingTokens: wholeNumber(text('max-thinking-tokens'), { flag: '--max-thinking-tokens', min: 0 }),
    maxRetries: wholeNumber(text('max-retries'), { flag: '--max-retries', min: 0 }),
    streamIdleTimeoutMs: wholeNumber(text('stream-idle-timeout'), { flag: '--stream-idle-timeout', min: 1 }),
    systemPrompt: text('system-prompt') ?? readTextFile(text('system-prompt-file'), '--system-prompt-file'),
    appendSystemPrompt: appendParts.length > 0 ? appendParts.join('\n\n') : undefined,
    jsonSchema: text('json-schema'),
    agents: agentsObject(text('agents')),
    resume: text('resume'),
    continue: flag('continue'),
    forkSession: flag('fork-session'),
    resumeSessionAt: text('resume-session-at'),
    sessionId: uuid(text('session-id'), '--session-id'),
    persistSession: !flag('no-session-persistence'),
    addDir: list('add-dir') ?? [],
    provider: oneOf(text('provider'), ['anthropic', 'openai', 'scripted'] as const, '--provider'),
    baseUrl: text('base-url'),
    script: text('script'),
    debug: flag('debug') || flag('debug-to-stderr'),
    debugFilter: typeof debugValue === 'string' && debugValue.trim() !== '' ? debugValue : undefined,
    debugToStderr: flag('debug-to-stderr'),
    help: flag('help'),
    version: flag('version'),
    cwd: text('cwd'),
    trustProject: flag('trust-project'),
    notices,
  };
}
