import type { AllowDecision, CallApproval } from '../contract/permission.js';

/**
 * Who approved an allow decision, from its reason. A gate's decision is never a person's answer,
 * whatever reason it gives: only the approver path of this chain records `person`.
 */
export function approvalOf(decision: AllowDecision): CallApproval {
  const readOnly = decision.readOnly === true;
  switch (decision.reason.kind) {
    case 'read-only':
      return { by: 'read-only', readOnly };
    case 'rule':
      return { by: 'rule', readOnly };
    case 'mode':
      return { by: 'mode', readOnly };
    case 'hook':
      return { by: 'hook', readOnly };
    case 'approver':
    case 'tool':
    case 'safety':
    case 'no-approver':
    case 'default':
      return { by: 'tool', readOnly };
  }
}
