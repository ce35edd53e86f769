import { describeError } from '../errors/toolplane-error.js';
import { getInputParser } from '../schema/parse-input.js';
import { stopWith, subjectOf, type CallInProgress, type GateStep } from './call-in-progress.js';

/** The deny pre-check, then the tool's `validateInput`, on the call's input. */
export async function checkInput(call: CallInProgress): Promise<GateStep> {
  let denial;
  try {
    denial = call.env.permissions.preCheck(subjectOf(call));
  } catch (error) {
    denial = {
      behavior: 'deny' as const,
      message: 'The permission pre-check failed, so the call was refused.',
      reason: { kind: 'safety' as const, message: `deny pre-check failed: ${describeError(error)}` },
    };
  }
  if (denial) return stopWith(call, { status: 'denied', message: denial.message, reason: denial.reason });
  try {
    const validation = await call.tool.validateInput(call.input, call.control);
    if (!validation.ok) return stopWith(call, { status: 'validation-failed', message: validation.message });
  } catch (error) {
    return stopWith(call, { status: 'validation-failed', message: `Input check failed: ${describeError(error)}` });
  }
  return { ok: true, call };
}

/** An input that replaces the call's (from a hook or a person): parsed against the schema, then checked. */
export async function checkReplacement(call: CallInProgress, replacement: unknown): Promise<GateStep> {
  const parsed = getInputParser(call.tool)(replacement);
  if (!parsed.ok) {
    return stopWith(call, {
      status: 'invalid-input',
      message: `The replaced input (from a hook or a person) is invalid:\n${parsed.message}`,
    });
  }
  return checkInput({ ...call, input: parsed.value });
}
