import type { ApprovalResponse } from '../contract/gates.js';
import type { AskDecision, DecisionReason, PassthroughDecision } from '../contract/permission.js';
import { describeError } from '../errors/toolplane-error.js';
import { stopWith, type CallInProgress, type GateStep } from './call-in-progress.js';
import { approved } from './approve-replacement.js';

/** An `ask` (or a `passthrough`, which the plane treats as one), with its message and reason filled in. */
export type OpenAsk = {
  readonly decision: AskDecision | PassthroughDecision;
  readonly message: string;
  readonly reason: DecisionReason;
};

/**
 * Puts an ask to the approver (a person). Without one, or when the prompt fails, the call is
 * denied; "abort" stops the whole run; "allow" may save a rule and may replace the input.
 */
export async function askPerson(call: CallInProgress, ask: OpenAsk): Promise<GateStep> {
  const { env, tool, block, control } = call;
  if (!env.approver) {
    return stopWith(call, {
      status: 'denied',
      message: `${ask.message} No one is available to approve it, so it was denied.`,
      reason: { kind: 'no-approver', message: `no approver (${describeReasonShort(ask.reason)})` },
    });
  }
  let summary: string;
  try {
    summary = tool.describeInput(call.input);
  } catch {
    summary = tool.name;
  }
  env.emit({ type: 'permission-request', toolUseId: block.id, toolName: tool.name, summary, message: ask.message });
  let response: ApprovalResponse;
  try {
    response = await env.approver.request(
      {
        tool,
        input: call.input,
        toolUseId: block.id,
        message: ask.message,
        summary,
        reason: ask.reason,
        suggestions: ask.decision.behavior === 'ask' ? (ask.decision.suggestions ?? []) : [],
      },
      control.signal,
    );
  } catch (error) {
    if (control.stopped) return stopWith(call, { status: 'aborted', cause: 'abort' });
    return stopWith(call, {
      status: 'denied',
      message: 'The approval prompt failed, so the call was denied.',
      reason: { kind: 'no-approver', message: `approver failed: ${describeError(error)}` },
    });
  }
  switch (response.behavior) {
    case 'abort':
      env.abortRun();
      return stopWith(call, { status: 'aborted', cause: 'interrupt' });
    case 'deny':
      return stopWith(call, {
        status: 'denied',
        message: response.feedback ? `The user said: ${response.feedback}` : '',
        reason: { kind: 'approver', ...(response.feedback ? { message: response.feedback } : {}) },
      });
    case 'allow':
      if (response.remember && env.permissions.remember) {
        try {
          await env.permissions.remember(response.remember);
        } catch {
          // Saving the rule is a convenience; this call is approved either way.
        }
      }
      return approved(call, { approval: { by: 'person', readOnly: false }, replacement: response.updatedInput });
  }
}

function describeReasonShort(reason: DecisionReason): string {
  return reason.kind === 'rule' ? `ask rule ${reason.rule}` : reason.kind;
}
