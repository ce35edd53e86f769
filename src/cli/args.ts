import { parseArgs } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../contract/permission.js';

/** Output formats of headless runs, as the reference names them. */
export type OutputFormat = 'text' | 'json' | 'stream-json';
export type ProviderName = 'anthropic' | 'openai' | 'scripted';

/** The command line of a run (not a subcommand). */
export type RunArguments = {
  readonly prompt: string | undefined;
  readonly print: boolean;
  readonly outputFormat: OutputFormat;
  readonly model: string | undefined;
  readonly permissionMode: PermissionMode | undefined;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly settings: string | undefined;
  readonly mcpConfig: readonly string[];
  readonly maxTurns: number | undefined;
  /** Retries of a failed model request (`--max-retries`); else the settings', else the provider's default. */
  readonly maxRetries: number | undefined;
  /** Ms a response may go without an event before it is abandoned and retried (`--stream-idle-timeout`). */
  readonly streamIdleTimeoutMs: number | undefined;
  readonly appendSystemPrompt: string | undefined;
  readonly jsonSchema: string | undefined;
  readonly resume: string | undefined;
  readonly continue: boolean;
  readonly addDir: readonly string[];
  readonly provider: ProviderName | undefined;
  readonly baseUrl: string | undefined;
  readonly script: string | undefined;
  readonly debug: boolean;
  readonly help: boolean;
  readonly version: boolean;
  readonly cwd: string | undefined;
  /** `--trust-project`: the working folder's own settings apply in full for this run. */
  readonly trustProject: boolean;
};

/** Why `--json-schema` is refused without `-p`. */
export const JSON_SCHEMA_NEEDS_PRINT =
  '--json-schema needs -p/--print: structured output is for non-interactive runs; the terminal UI has none.';

/** A command-line mistake, reported with usage and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  print: { type: 'boolean', short: 'p' },
  'output-format': { type: 'string' },
  model: { type: 'string' },
  'permission-mode': { type: 'string' },
  allowedTools: { type: 'string', multiple: true },
  'allowed-tools': { type: 'string', multiple: true },
  disallowedTools: { type: 'string', multiple: true },
  'disallowed-tools': { type: 'string', multiple: true },
  settings: { type: 'string' },
  'mcp-config': { type: 'string', multiple: true },
  'max-turns': { type: 'string' },
  'max-retries': { type: 'string' },
  'stream-idle-timeout': { type: 'string' },
  'append-system-prompt': { type: 'string' },
  'json-schema': { type: 'string' },
  resume: { type: 'string', short: 'r' },
  continue: { type: 'boolean', short: 'c' },
  'add-dir': { type: 'string', multiple: true },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  script: { type: 'string' },
  debug: { type: 'boolean', short: 'd' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  cwd: { type: 'string' },
  'trust-project': { type: 'boolean' },
} as const;

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
}

/** Splits `--allowedTools "Read Bash(git *)"` style lists on commas and spaces outside parentheses. */
export function splitToolArguments(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) out.push(current.trim());
        current = '';
      } else {
        current += char;
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

/** Parses the arguments of a run. Throws {@link UsageError} on unknown flags or bad values. */
export function parseRunArguments(argv: readonly string[]): RunArguments {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  let maxTurns: number | undefined;
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns']);
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new UsageError('--max-turns must be a positive whole number.');
  }
  const maxRetries = wholeNumber(values['max-retries'], { flag: '--max-retries', min: 0 });
  const streamIdleTimeoutMs = wholeNumber(values['stream-idle-timeout'], { flag: '--stream-idle-timeout', min: 1 });
  if (values.resume !== undefined && values.continue)
    throw new UsageError('--resume and --continue cannot be used together.');
  return {
    prompt: positionals.length > 0 ? positionals.join(' ') : undefined,
    print: values.print ?? false,
    outputFormat: oneOf(values['output-format'], ['text', 'json', 'stream-json'] as const, '--output-format') ?? 'text',
    model: values.model,
    permissionMode: oneOf(values['permission-mode'], PERMISSION_MODES, '--permission-mode'),
    allowedTools: splitToolArguments([...(values.allowedTools ?? []), ...(values['allowed-tools'] ?? [])]),
    disallowedTools: splitToolArguments([...(values.disallowedTools ?? []), ...(values['disallowed-tools'] ?? [])]),
    settings: values.settings,
    mcpConfig: values['mcp-config'] ?? [],
    maxTurns,
    maxRetries,
    streamIdleTimeoutMs,
    appendSystemPrompt: values['append-system-prompt'],
    jsonSchema: values['json-schema'],
    resume: values.resume,
    continue: values.continue ?? false,
    addDir: values['add-dir'] ?? [],
    provider: oneOf(values.provider, ['anthropic', 'openai', 'scripted'] as const, '--provider'),
    baseUrl: values['base-url'],
    script: values.script,
    debug: values.debug ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    cwd: values.cwd,
    trustProject: values['trust-project'] ?? false,
  };
}

/** A flag's whole-number value of at least `min`, or undefined when the flag is absent. */
function wholeNumber(value: string | undefined, options: { readonly flag: string; readonly min: number }) {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < options.min)
    throw new UsageError(`${options.flag} must be a whole number of at least ${options.min}.`);
  return number;
}
