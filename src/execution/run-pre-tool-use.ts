import type { PreToolUseOutcome } from '../contract/gates.js';
import { describeError } from '../errors/toolplane-error.js';
import { stopWith, subjectOf, type CallInProgress, type GateStep } from './call-in-progress.js';
import { checkReplacement } from './check-input.js';

/**
 * The PreToolUse hooks: a deny ends the call, a stop request is passed on, a rewritten input is
 * parsed and checked again. The verdict travels on with the call, for the permission step.
 */
export async function runPreToolUse(call: CallInProgress): Promise<GateStep> {
  const hooks = call.env.hooks;
  if (!hooks) return { ok: true, call };
  let hook: PreToolUseOutcome;
  try {
    hook = await hooks.preToolUse(subjectOf(call), call.env.runSignal);
  } catch (error) {
    // The hook runner must resolve; if it throws anyway, nothing may run on its say-so.
    return stopWith(call, {
      status: 'hook-blocked',
      hook: undefined,
      message: `the hook runner failed: ${describeError(error)}`,
    });
  }
  if (hook.stopReason) call.env.requestStop(hook.stopReason);
  if (hook.decision === 'deny') {
    return stopWith(call, { status: 'hook-blocked', hook: hook.hook, message: hook.reason ?? 'no reason given' });
  }
  const withHook: CallInProgress = { ...call, hook };
  if (hook.updatedInput === undefined) return { ok: true, call: withHook };
  return checkReplacement(withHook, hook.updatedInput);
}
