import { hookLabel, type HookConfig } from '../contract/hook-config.js';
import { parseUsableRule } from '../permissions/rule-parser.js';
import type { SettingsFile } from './parse-settings-text.js';

type RawHook = NonNullable<SettingsFile['hooks']>[string][number]['hooks'][number];

/** The events that concern one tool call, where a hook's `if` can be judged. */
const TOOL_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
]);

/** What each hook type must name to run at all. */
const REQUIRED: Readonly<Record<string, readonly ('command' | 'url' | 'prompt' | 'server' | 'tool')[]>> = {
  command: ['command'],
  http: ['url'],
  prompt: ['prompt'],
  agent: ['prompt'],
  mcp_tool: ['server', 'tool'],
};

/**
 * One hook of a settings file as the hook runner takes it, or undefined (with the reason told)
 * when its type is unknown or it lacks what its type needs. An `if` that is not a permission rule,
 * or sits on an event that is not about a tool call, is told and left out: such a hook runs for
 * every event its matcher accepts.
 */
export function readHookConfig(event: string, hook: RawHook, warn: (message: string) => void): HookConfig | undefined {
  const required = REQUIRED[hook.type];
  if (required === undefined) {
    warn(`${event} hook of type ${JSON.stringify(hook.type)} is not a hook type toolplane knows; ignored`);
    return undefined;
  }
  const missing = required.filter((key) => typeof hook[key] !== 'string' || hook[key] === '');
  if (missing.length > 0) {
    warn(`${event} hook of type ${JSON.stringify(hook.type)} lacks its ${missing.join(' and ')}; ignored`);
    return undefined;
  }
  const config = build(hook, {
    ...(hook.timeout === undefined ? {} : { timeout: hook.timeout }),
    ...(hook.failClosed === undefined ? {} : { failClosed: hook.failClosed }),
    ...(hook.async === true ? { async: true } : {}),
    ...(hook.if !== undefined && TOOL_EVENTS.has(event) ? { if: hook.if } : {}),
  });
  const named = `${config.type} ${hookLabel(config)}`;
  const condition = hook.if === undefined ? undefined : parseUsableRule(hook.if, 'deny');
  if (typeof condition === 'string')
    warn(
      `${event} hook ${named}: "if" ${hook.if} is not a permission rule (${condition}); the hook runs for every call its matcher accepts`,
    );
  if (hook.if !== undefined && !TOOL_EVENTS.has(event))
    warn(`${event} hook ${named}: "if" applies to tool events only; the hook runs for every ${event}`);
  return config;
}

type Common = Pick<HookConfig, 'timeout' | 'failClosed' | 'async' | 'if'>;

/** The typed config of a hook whose type is known and whose required fields are there. */
function build(hook: RawHook, common: Common): HookConfig {
  switch (hook.type) {
    case 'http':
      return {
        type: 'http',
        url: hook.url!,
        ...(hook.headers === undefined ? {} : { headers: hook.headers }),
        ...(hook.allowedEnvVars === undefined ? {} : { allowedEnvVars: hook.allowedEnvVars }),
        ...common,
      };
    case 'prompt':
    case 'agent':
      return {
        type: hook.type,
        prompt: hook.prompt!,
        ...(hook.model === undefined ? {} : { model: hook.model }),
        ...common,
      };
    case 'mcp_tool':
      return {
        type: 'mcp_tool',
        server: hook.server!,
        tool: hook.tool!,
        ...(hook.input === undefined ? {} : { input: hook.input }),
        ...common,
      };
    default:
      return { type: 'command', command: hook.command!, ...common };
  }
}
