import type { PermissionRequestOutcome } from '../contract/gates.js';
import type { AskDecision, PassthroughDecision } from '../contract/permission.js';
import { approved } from './approve-replacement.js';
import { askPerson, type OpenAsk } from './ask-person.js';
import { subjectOf, stopWith, type CallInProgress, type GateStep } from './call-in-progress.js';

/**
 * Answers an `ask`: PermissionRequest hooks first (they may deny, or allow with saved rules and a
 * replaced input), then the approver; without one the call is denied (fail-closed).
 */
export async function resolveAsk(call: CallInProgress, decision: AskDecision | PassthroughDecision): Promise<GateStep> {
  const ask: OpenAsk = {
    decision,
    message: decision.message ?? `${call.tool.name} needs permission to run.`,
    reason: decision.reason ?? { kind: 'default', message: 'no rule allows this call' },
  };
  call.env.emit({ type: 'permission-decision', toolUseId: call.block.id, behavior: 'ask', reason: ask.reason });
  const byHooks = await askHooks(call, decision);
  return byHooks ?? askPerson(call, ask);
}

/** The PermissionRequest hooks' answer, or `undefined` when they leave the ask to the approver. */
async function askHooks(
  call: CallInProgress,
  decision: AskDecision | PassthroughDecision,
): Promise<GateStep | undefined> {
  const { env, tool } = call;
  if (!env.hooks) return undefined;
  let verdict: PermissionRequestOutcome;
  try {
    verdict = await env.hooks.permissionRequest({ ...subjectOf(call), decision }, env.runSignal);
  } catch {
    verdict = {};
  }
  if (verdict.decision === 'deny') {
    if (verdict.interrupt)
      env.requestStop(
        `a PermissionRequest hook (${verdict.hook ?? 'PermissionRequest'}) denied ${tool.name} and stopped the turn`,
      );
    return stopWith(call, {
      status: 'denied',
      message: verdict.message ?? '',
      reason: {
        kind: 'hook',
        hook: verdict.hook ?? 'PermissionRequest',
        ...(verdict.message ? { message: verdict.message } : {}),
      },
    });
  }
  if (verdict.decision !== 'allow') return undefined;
  for (const rule of verdict.remember ?? []) {
    try {
      await env.permissions.remember?.(rule);
    } catch {
      // Saving is a convenience; this call is approved by the hook either way.
    }
  }
  return approved(call, { approval: { by: 'hook', readOnly: false }, replacement: verdict.updatedInput });
}
