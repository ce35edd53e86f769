import { z } from 'zod';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { parseJsonDocument, type TextPosition } from './parse-json-document.js';
import { sandboxSettingsSchema } from './sandbox-settings.js';

/** `timeout` of a hook: seconds, positive. */
const commandHookSchema = z.looseObject({
  type: z.string(),
  command: z.string().optional(),
  url: z.string().optional(),
  prompt: z.string().optional(),
  model: z.string().optional(),
  server: z.string().optional(),
  tool: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  timeout: z.number().positive().optional(),
  failClosed: z.boolean().optional(),
  if: z.string().optional(),
  async: z.boolean().optional(),
});

const hookMatcherSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(commandHookSchema),
});

const permissionsSchema = z.looseObject({
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  defaultMode: z.string().optional(),
  additionalDirectories: z.array(z.string()).optional(),
  disableBypassPermissionsMode: z.union([z.literal('disable'), z.boolean()]).optional(),
});

/**
 * One settings file: the reference system's schema for `permissions` and `hooks`, plus
 * `mcpServers` and `env` carried as data. Unknown keys are kept and ignored.
 */
export const settingsFileSchema = z.looseObject({
  permissions: permissionsSchema.optional(),
  hooks: z.record(z.string(), z.array(hookMatcherSchema)).optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** The kernel sandbox for Bash (see sandbox-settings.ts). */
  sandbox: sandboxSettingsSchema.optional(),
  /** Turns hooks off: all of them from the managed policy, all but the policy's from elsewhere. */
  disableAllHooks: z.boolean().optional(),
  /** Managed policy only: hooks from every other source are ignored. */
  allowManagedHooksOnly: z.boolean().optional(),
  /** Managed policy only: allow rules from every other source are ignored (their deny and ask rules still apply). */
  allowManagedPermissionRulesOnly: z.boolean().optional(),
  /** Retries of a failed model request (overload, rate limit, server error, a cut or idle stream). */
  maxRetries: z.number().int().min(0).optional(),
  /** Ms a model response may go without an event before it is abandoned and retried. */
  streamIdleTimeoutMs: z.number().int().min(1).optional(),
  /** Prices of models, USD per million tokens, over the built-in list (see model-price-settings.ts). */
  modelPrices: z
    .record(
      z.string(),
      z.strictObject({
        input: z.number().min(0),
        output: z.number().min(0),
        cacheRead: z.number().min(0).optional(),
        cacheWrite: z.number().min(0).optional(),
      }),
    )
    .optional(),
});

/** A settings file after validation. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;

/** Something worth telling the person about a settings file that is still usable. */
export type SettingsWarning = {
  /** The file (or `--settings (inline JSON)`, `--allowedTools`, …) the warning is about. */
  readonly file: string;
  readonly message: string;
  /** The rule the warning is about, if any. */
  readonly rule?: string;
  readonly position?: TextPosition;
};

/** A validated settings document and the warnings found while reading it. */
export type ParsedSettings = {
  readonly settings: SettingsFile;
  readonly warnings: readonly SettingsWarning[];
};

function invalid(label: string, position: TextPosition, message: string): ToolplaneError {
  return new ToolplaneError(
    'SETTINGS_INVALID',
    `Settings ${label} is invalid at line ${position.line}, column ${position.column} (${position.line}:${position.column}): ${message}. ` +
      'Fix or remove it: toolplane does not start with settings it cannot read, so that no deny rule is lost.',
  );
}

/**
 * Parses and validates the text of one settings file. `label` names it in messages (a path, or
 * `--settings (inline JSON)`). An empty or whitespace-only file counts as `{}`.
 * Throws `ToolplaneError('SETTINGS_INVALID')` naming the label and the line:column of the problem
 * for bad JSON or a wrong shape; duplicate keys (the later one wins) are warnings.
 */
export function parseSettingsText(text: string, label: string): ParsedSettings {
  if (text.replace(/^\uFEFF/, '').trim() === '') return { settings: {}, warnings: [] };
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) throw invalid(label, parsed.position, parsed.message);
  const { document } = parsed;
  const result = settingsFileSchema.safeParse(document.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path ?? [];
    const where = path.length > 0 ? `${path.map(String).join('.')}: ` : '';
    throw invalid(label, document.locate(path), `${where}${issue?.message ?? 'wrong shape'}`);
  }
  const settings = result.data;
  const warnings: SettingsWarning[] = document.duplicateKeys.map((duplicate) => ({
    file: label,
    position: duplicate.position,
    message: `key ${duplicate.key} appears more than once; only the last one is used`,
  }));
  for (const [event, matchers] of Object.entries(settings.hooks ?? {})) {
    matchers.forEach((matcher, matcherIndex) => {
      matcher.hooks.forEach((hook, hookIndex) => {
        const path = ['hooks', event, matcherIndex, 'hooks', hookIndex];
        if (hook.type === 'command' && (hook.command === undefined || hook.command.trim() === '')) {
          throw invalid(label, document.locate(path), `${path.join('.')}: a command hook needs a non-empty "command"`);
        }
      });
    });
  }
  return { settings, warnings };
}
