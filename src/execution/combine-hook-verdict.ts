import type { PreToolUseOutcome } from '../contract/gates.js';
import type { DecisionReason, PermissionDecision } from '../contract/permission.js';

/**
 * Combines the PreToolUse hooks' verdict with the permission gate's decision; the most restrictive
 * wins (deny > ask > allow). The gate chain applies it to every decision, so a gate a host writes
 * can never drop a hook's deny or ask. A hook's allow never loosens anything here: only a gate may
 * honour it (it receives `hookDecision` to skip a prompt that no rule or check insists on).
 */
export function combineHookVerdict(options: {
  readonly decision: PermissionDecision;
  readonly hook: PreToolUseOutcome;
  readonly toolName: string;
}): PermissionDecision {
  const { decision, hook, toolName } = options;
  if (decision.behavior === 'deny') return decision;
  const reason: DecisionReason = {
    kind: 'hook',
    hook: hook.hook ?? 'PreToolUse hook',
    ...(hook.reason ? { message: hook.reason } : {}),
  };
  if (hook.decision === 'deny') {
    return { behavior: 'deny', message: hook.reason ?? 'A PreToolUse hook blocked this call.', reason };
  }
  if (hook.decision === 'ask' && decision.behavior === 'allow') {
    return { behavior: 'ask', message: hook.reason ?? `A PreToolUse hook asks for approval of ${toolName}.`, reason };
  }
  return decision;
}
