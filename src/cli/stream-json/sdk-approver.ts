import { z } from 'zod';
import type { ApprovalRequest, ApprovalResponse, Approver } from '../../contract/gates.js';
import type { DecisionReason, RuleSuggestion } from '../../contract/permission.js';
import type { ControlChannel } from './control-channel.js';

/** A rule as the Agent SDK's `PermissionRuleValue` spells it. */
export type SdkRuleValue = { readonly toolName: string; readonly ruleContent?: string };

const destinationSchema = z.enum(['session', 'localSettings', 'projectSettings', 'userSettings', 'cliArg']);
const ruleValueSchema = z.looseObject({ toolName: z.string().min(1), ruleContent: z.string().optional() });
const permissionUpdateSchema = z.looseObject({
  type: z.string(),
  rules: z.array(ruleValueSchema).optional(),
  behavior: z.enum(['allow', 'deny', 'ask']).optional(),
  destination: destinationSchema.optional(),
});
/** The host's answer to `can_use_tool`: the SDK's `PermissionResult`. */
const permissionResultSchema = z.discriminatedUnion('behavior', [
  z.looseObject({
    behavior: z.literal('allow'),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    updatedPermissions: z.array(permissionUpdateSchema).optional(),
  }),
  z.looseObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
]);

/** `Bash(git status:*)` as `{ toolName: 'Bash', ruleContent: 'git status:*' }`; a bare name has no content. */
export function splitRule(rule: string): SdkRuleValue {
  const open = rule.indexOf('(');
  if (open <= 0 || !rule.endsWith(')')) return { toolName: rule };
  return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) };
}

/** The inverse of {@link splitRule}. */
export function joinRule(value: SdkRuleValue): string {
  return value.ruleContent === undefined || value.ruleContent === ''
    ? value.toolName
    : `${value.toolName}(${value.ruleContent})`;
}

/** The reference's `decision_reason_type` for a decision reason. */
function reasonType(reason: DecisionReason): string {
  switch (reason.kind) {
    case 'rule':
      return 'rule';
    case 'mode':
      return 'mode';
    case 'hook':
      return 'hook';
    case 'safety':
      return 'safetyCheck';
    default:
      return 'other';
  }
}

function toPermissionUpdates(suggestions: readonly RuleSuggestion[]) {
  return suggestions.map((suggestion) => ({
    type: 'addRules',
    rules: [splitRule(suggestion.rule)],
    behavior: suggestion.behavior,
    destination: suggestion.destination,
  }));
}

/** Options for {@link createSdkApprover}. */
export type SdkApproverOptions = {
  readonly channel: ControlChannel;
  /** Told when the host's answer could not be used (the call is then denied). */
  readonly warn: (line: string) => void;
};

/**
 * An approver that asks the Agent SDK's `canUseTool` over the control channel
 * (`--permission-prompt-tool stdio`). It is asked only for calls the plane would ask a person
 * about: deny rules, safety checks, hooks and the sandbox have decided before it, and an input it
 * edits is parsed and decided again. An answer that cannot be read, an error answer, or a channel
 * that closed all deny (fail-closed). `interrupt: true` with a deny stops the turn.
 */
export function createSdkApprover(options: SdkApproverOptions): Approver {
  return {
    async request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalResponse> {
      let raw: Record<string, unknown>;
      try {
        raw = await options.channel.request(
          {
            subtype: 'can_use_tool',
            tool_name: request.tool.name,
            input: request.input,
            tool_use_id: request.toolUseId,
            permission_suggestions: toPermissionUpdates(request.suggestions),
            decision_reason: request.message,
            decision_reason_type: reasonType(request.reason),
            description: request.summary,
          },
          signal,
        );
      } catch (error) {
        if (signal.aborted) return { behavior: 'abort' };
        const message = error instanceof Error ? error.message : String(error);
        options.warn(`toolplane: the host's permission callback failed (${message}): the call is denied`);
        return { behavior: 'deny', feedback: `The permission callback failed: ${message}` };
      }
      const parsed = permissionResultSchema.safeParse(raw);
      if (!parsed.success) {
        options.warn(`toolplane: the host's permission answer is not a PermissionResult: the call is denied`);
        return { behavior: 'deny', feedback: 'The permission callback gave an answer that could not be read.' };
      }
      const answer = parsed.data;
      if (answer.behavior === 'deny') {
        if (answer.interrupt === true) return { behavior: 'abort' };
        return { behavior: 'deny', ...(answer.message ? { feedback: answer.message } : {}) };
      }
      const remember = firstRuleToSave(answer.updatedPermissions ?? []);
      return {
        behavior: 'allow',
        ...(answer.updatedInput !== undefined ? { updatedInput: answer.updatedInput } : {}),
        ...(remember ? { remember } : {}),
      };
    },
  };
}

/**
 * The first `addRules` update of the answer, as a rule to save. The plane saves it through the
 * permission gate, which never lets a saved allow outrank a deny rule.
 */
function firstRuleToSave(updates: readonly z.infer<typeof permissionUpdateSchema>[]): RuleSuggestion | undefined {
  for (const update of updates) {
    const rule = update.rules?.[0];
    if (update.type !== 'addRules' || rule === undefined || update.behavior === undefined) continue;
    const destination =
      update.destination === 'cliArg' || update.destination === undefined ? 'session' : update.destination;
    return { rule: joinRule(rule), behavior: update.behavior, destination };
  }
  return undefined;
}
