import type { HookEventName, HookSettings } from '../contract/hook-config.js';
import { hookLabel } from '../contract/hook-config.js';
import { compileMatcher } from './compile-matcher.js';
import type { FunctionHook } from './hook-types.js';

/** Why a turn ended on an API error, as StopFailure hooks (and their matchers) see it in `error`. */
export type StopFailureError =
  | 'rate_limit'
  | 'authentication_failed'
  | 'oauth_org_not_allowed'
  | 'billing_error'
  | 'invalid_request'
  | 'server_error'
  | 'max_output_tokens'
  | 'unknown';

/** What a Notification tells the person, in `notification_type`. */
export type NotificationType =
  | 'permission_prompt'
  | 'idle_prompt'
  | 'auth_success'
  | 'elicitation_dialog'
  | 'elicitation_complete'
  | 'elicitation_response';

/** The scope of an instruction file, in `memory_type`. */
export type InstructionsMemoryType = 'User' | 'Project' | 'Local' | 'Managed';

/** Why an instruction file entered the context, in `load_reason`. */
export type InstructionsLoadReason = 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact';

/** Which settings file changed, in a ConfigChange's `source`. */
export type ConfigChangeSource = 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills';

/**
 * The values toolplane sends in the matched field of each event whose values are a fixed list. The
 * rest of the reference's values never come: toolplane has no OAuth login, no output-token error
 * (a response cut at its limit ends the turn normally), no idle or elicitation prompts, no nested
 * or path-scoped instruction files (and reloads none: the system prompt keeps them through
 * compaction), and no watched managed policy or skills.
 */
export const SENT_VALUES: ReadonlyMap<HookEventName, readonly string[]> = new Map<HookEventName, readonly string[]>([
  [
    'StopFailure',
    [
      'rate_limit',
      'authentication_failed',
      'billing_error',
      'invalid_request',
      'server_error',
      'unknown',
    ] satisfies StopFailureError[],
  ],
  ['Notification', ['permission_prompt'] satisfies NotificationType[]],
  ['InstructionsLoaded', ['session_start'] satisfies InstructionsLoadReason[]],
  ['ConfigChange', ['user_settings', 'project_settings', 'local_settings'] satisfies ConfigChangeSource[]],
]);

/**
 * Why a matcher of `event` never matches, when it can match none of the values toolplane sends
 * in the event's matched field; undefined when it can match one, when the event's values are not
 * a fixed list (tool names), and for an invalid expression (reported where it is compiled).
 */
export function unreachableMatcherReason(event: HookEventName, matcher: string | undefined): string | undefined {
  const sent = SENT_VALUES.get(event);
  const compiled = compileMatcher(matcher);
  if (sent === undefined || compiled.error !== undefined || sent.some((value) => compiled.test(value)))
    return undefined;
  return `its matcher ${JSON.stringify(matcher)} matches none of what toolplane sends (${sent.join(', ')})`;
}

/**
 * Hooks whose matcher can match none of the values toolplane sends for their event (a
 * Notification matcher `idle_prompt`): each would never run, so each is told, by name, at start.
 * A matcher that is not a valid expression is left out (it is reported where it is compiled).
 */
export function unreachableHookMessages(options: {
  readonly settings?: HookSettings;
  readonly functionHooks?: readonly FunctionHook[];
}): string[] {
  const messages: string[] = [];
  const check = (event: HookEventName, matcher: string | undefined, names: readonly string[], where: string) => {
    const reason = unreachableMatcherReason(event, matcher);
    if (reason === undefined) return;
    for (const name of names) messages.push(`${where}: ${event} hook ${JSON.stringify(name)} never runs: ${reason}`);
  };
  for (const [event, groups] of options.settings ?? [])
    for (const group of groups)
      check(
        event,
        group.matcher,
        group.hooks.map((hook) => hookLabel(hook)),
        group.file ?? `${group.source} settings`,
      );
  for (const hook of options.functionHooks ?? []) check(hook.event, hook.matcher, [hook.name], 'function hooks');
  return messages;
}
