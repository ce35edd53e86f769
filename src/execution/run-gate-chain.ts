import type { CallControl } from './call-control.js';
import {
  failure,
  type CallInProgress,
  type GateEnvironment,
  type GateResult,
  type GateStep,
} from './call-in-progress.js';
import { checkInput } from './check-input.js';
import { decidePermission } from './decide-permission.js';
import { executeCall } from './execute-call.js';
import type { PreparedCall } from './prepare-call.js';
import { runPreToolUse } from './run-pre-tool-use.js';

export type { CallInProgress, GateEnvironment, GateResult } from './call-in-progress.js';

/** One call to run through the chain. */
export type GateChainRequest = {
  readonly prepared: PreparedCall;
  readonly control: CallControl;
  readonly env: GateEnvironment;
  /** Runs just before the tool's code, after every check and answer. */
  readonly onCallStart?: () => void;
};

/** The steps before the call, in order; each either hands the call on or ends it with a result. */
const STEPS: readonly ((call: CallInProgress) => Promise<GateStep>)[] = [checkInput, runPreToolUse, decidePermission];

/**
 * Runs one call through the gate chain, in order: a refused input shape, the tool's lookup, abort check, schema parse, deny pre-check,
 * validateInput, PreToolUse hooks, the permission decision (then PermissionRequest hooks and the
 * approver for `ask`; no approver means deny), the call (`onCallStart` runs just before it, so a
 * time limit does not count the time a person takes to answer), PostToolUse or PostToolUseFailure hooks,
 * mapping for the model and the size limit. Never throws: every path ends in a result.
 * An input replaced by a hook or a person is parsed and checked again.
 */
export async function runGateChain(request: GateChainRequest): Promise<GateResult> {
  const { prepared, control, env } = request;
  const { block, tool, parsed } = prepared;
  if (prepared.refusal !== undefined) return failure(block, { status: 'refused', message: prepared.refusal });
  if (!tool || !parsed) return failure(block, { status: 'unknown-tool' });
  if (control.stopped) return failure(block, { status: 'aborted', cause: 'abort' });
  if (!parsed.ok) return failure(block, { status: 'invalid-input', message: parsed.message });

  let call: CallInProgress = { block, tool, control, env, input: parsed.value, hook: {} };
  for (const step of STEPS) {
    const next = await step(call);
    if (!next.ok) return next.result;
    call = next.call;
  }

  if (control.stopped) return failure(block, { status: 'aborted', cause: 'abort' });
  request.onCallStart?.();
  control.approval = call.approval ?? { by: 'person', readOnly: false };
  return executeCall(call);
}
