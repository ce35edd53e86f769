import { describeReason, type DecisionReason } from '../../contract/permission.js';

/** Advice written for the model ("Do not retry this call; …"), which the screen leaves out. */
const MODEL_ADVICE = /\s*\b(?:Do not retry|Do not ask the same question again)\b[^.]*(?:\.|$)/g;

/** Text written for both the model and people, without the sentences that speak to the model. */
export function withoutModelAdvice(text: string): string {
  return text.replace(MODEL_ADVICE, '').trim();
}

/**
 * Why a call was refused, as the person at the terminal reads it: their own answer is "you", and
 * advice meant for the model is left out. The model's wording is {@link describeReason}'s.
 */
export function reasonForPeople(reason: DecisionReason): string {
  if (reason.kind === 'approver') return reason.message ? `you: ${withoutModelAdvice(reason.message)}` : 'you';
  return withoutModelAdvice(describeReason(reason));
}
