import type { CallApproval, PermissionDecision } from '../contract/permission.js';
import { describeError } from '../errors/toolplane-error.js';
import { stopWith, type CallInProgress, type GateStep } from './call-in-progress.js';
import { checkReplacement } from './check-input.js';

/** An approved ask: the call goes on with this approval, and with the replacement if one was given. */
export async function approved(
  call: CallInProgress,
  answer: { readonly approval: CallApproval; readonly replacement: unknown },
): Promise<GateStep> {
  if (answer.replacement === undefined) return { ok: true, call: { ...call, approval: answer.approval } };
  const replaced = await approveReplacement(call, answer.replacement);
  return replaced.ok ? { ok: true, call: { ...replaced.call, approval: answer.approval } } : replaced;
}

/**
 * An input that replaced the one an ask was about, when that ask was approved: it is parsed and
 * checked again, and decided again. The approval answers an ask, so a replacement that would only
 * ask runs; one the gate denies (the tool's own check, the mode) does not: deny beats allow.
 */
async function approveReplacement(call: CallInProgress, replacement: unknown): Promise<GateStep> {
  const checked = await checkReplacement(call, replacement);
  if (!checked.ok) return checked;
  const { env, tool, block } = checked.call;
  let decision: PermissionDecision;
  try {
    decision = await env.permissions.decide({
      tool,
      input: checked.call.input,
      toolUseId: block.id,
      context: call.control,
    });
  } catch (error) {
    decision = {
      behavior: 'deny',
      message: 'The permission check of the replaced input failed, so the call was refused.',
      reason: { kind: 'safety', message: `permission check failed: ${describeError(error)}` },
    };
  }
  if (decision.behavior !== 'deny') return checked;
  env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'deny', reason: decision.reason });
  return stopWith(call, { status: 'denied', message: decision.message, reason: decision.reason });
}
