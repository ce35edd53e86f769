import type { PermissionDecision } from '../contract/permission.js';
import { describeError } from '../errors/toolplane-error.js';
import { approvalOf } from './approval-of.js';
import { stopWith, type CallInProgress, type GateStep } from './call-in-progress.js';
import { checkReplacement } from './check-input.js';
import { combineHookVerdict } from './combine-hook-verdict.js';
import { resolveAsk } from './resolve-ask.js';

/**
 * The permission decision: the gate decides, the hooks' verdict is combined with it (most
 * restrictive wins), then a deny ends the call, an allow approves it (an input the gate replaced
 * is checked again and never runs as read-only), and an ask goes to PermissionRequest hooks and
 * the approver.
 */
export async function decidePermission(call: CallInProgress): Promise<GateStep> {
  const { block, tool, env } = call;
  let decision: PermissionDecision;
  try {
    decision = await env.permissions.decide({
      tool,
      input: call.input,
      toolUseId: block.id,
      context: call.control,
      hookDecision: call.hook,
    });
  } catch (error) {
    decision = {
      behavior: 'ask',
      message: `The permission check failed (${describeError(error)}).`,
      reason: { kind: 'safety', message: `permission check failed: ${describeError(error)}` },
    };
  }
  // Here, not in each gate: whatever gate the host wrote, a hook's deny or ask holds.
  decision = combineHookVerdict({ decision, hook: call.hook, toolName: tool.name });
  if (decision.behavior === 'deny') {
    env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'deny', reason: decision.reason });
    return stopWith(call, { status: 'denied', message: decision.message, reason: decision.reason });
  }
  if (decision.behavior !== 'allow') return resolveAsk(call, decision);
  env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'allow', reason: decision.reason });
  const approval = approvalOf(decision);
  if (decision.updatedInput === undefined) return { ok: true, call: { ...call, approval } };
  const replaced = await checkReplacement(call, decision.updatedInput);
  // The replacement was not the input the analysis judged; it runs as allowed, never as read-only.
  return replaced.ok ? { ok: true, call: { ...replaced.call, approval: { ...approval, readOnly: false } } } : replaced;
}
