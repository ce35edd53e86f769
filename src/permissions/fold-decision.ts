import type { CallSubject, PreToolUseOutcome } from '../contract/gates.js';
import type {
  DecisionReason,
  DenyDecision,
  PermissionDecision,
  PermissionMode,
  RuleSuggestion,
  AskDecision,
} from '../contract/permission.js';
import type { Evaluation } from './evaluation.js';
import { PLAN_MODE_TOOLS } from './tool-descriptors.js';

function isAskOrDeny(decision: PermissionDecision): decision is AskDecision | DenyDecision {
  return decision.behavior === 'ask' || decision.behavior === 'deny';
}

/** The decision a deny rule's evaluation gives. */
export function denyOf(deny: NonNullable<Evaluation['deny']>): DenyDecision {
  return { behavior: 'deny', message: deny.message, reason: deny.reason };
}

/** The decision when the tool's own `checkPermissions` throws: a person decides. */
export function toolCheckFailed(error: unknown): PermissionDecision {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    behavior: 'ask',
    message: `The tool's permission check failed (${detail}); approve only if the call is safe.`,
    reason: { kind: 'safety', message: `the tool's permission check failed: ${detail}` },
  };
}

/** Turns an ask into the answer the mode gives: dontAsk denies whatever would prompt. */
function askOrDeny(options: {
  readonly mode: PermissionMode;
  readonly message: string;
  readonly reason: DecisionReason;
  readonly suggestions?: readonly RuleSuggestion[];
}): PermissionDecision {
  if (options.mode === 'dontAsk') {
    return {
      behavior: 'deny',
      message: `${options.message} Permission mode dontAsk denies calls that would need approval; do not retry, take another approach.`,
      reason:
        options.reason.kind === 'rule' || options.reason.kind === 'safety'
          ? options.reason
          : { kind: 'mode', mode: 'dontAsk' },
    };
  }
  return {
    behavior: 'ask',
    message: options.message,
    reason: options.reason,
    ...(options.suggestions && options.suggestions.length > 0 ? { suggestions: options.suggestions } : {}),
  };
}

/** Folds the evaluation, the hook verdict, the tool's own check and the mode into the decision. */
export function foldDecision(options: {
  readonly subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome };
  readonly evaluation: Evaluation;
  readonly toolDecision: PermissionDecision;
  readonly mode: PermissionMode;
}): PermissionDecision {
  const { subject, evaluation, toolDecision, mode } = options;
  const name = subject.tool.name;
  const hook = subject.hookDecision;
  const hookReason: DecisionReason = {
    kind: 'hook',
    hook: hook?.hook ?? 'PreToolUse hook',
    ...(hook?.reason ? { message: hook.reason } : {}),
  };
  // Deny beats ask: the tool's own deny wins over a safety check or an ask rule that would prompt.
  if (toolDecision.behavior === 'deny') {
    return { ...toolDecision, reason: toolDecision.reason ?? { kind: 'tool', message: toolDecision.message } };
  }
  const safety = evaluation.safety;
  if (safety && !(safety.bypassable && mode === 'bypassPermissions')) {
    return askOrDeny({ mode, message: safety.message, reason: { kind: 'safety', message: safety.message } });
  }
  if (evaluation.ask) return askOrDeny({ mode, message: evaluation.ask.message, reason: evaluation.ask.reason });
  if (hook?.decision === 'ask') {
    return askOrDeny({
      mode,
      message: hook.reason ?? `A PreToolUse hook asks for approval of ${name}.`,
      reason: hookReason,
    });
  }
  if (isAskOrDeny(toolDecision)) {
    // A tool's ask that offers rules to save means "ask unless the person allowed this": an allow
    // rule (an "always allow" saved earlier) answers it. An ask with no suggestions, or a safety
    // ask, always prompts (the reference's requiresUserInteraction), even in bypass mode.
    if (
      toolDecision.behavior === 'ask' &&
      toolDecision.reason.kind !== 'safety' &&
      (toolDecision.suggestions?.length ?? 0) > 0 &&
      evaluation.approved?.kind === 'rule'
    ) {
      return { behavior: 'allow', reason: evaluation.approved };
    }
    return askOrDeny({
      mode,
      message: toolDecision.message,
      reason: toolDecision.reason,
      ...(toolDecision.suggestions ? { suggestions: toolDecision.suggestions } : {}),
    });
  }
  // Plan mode holds against every allow short of the mode itself: neither the tool's own allow nor
  // a hook's allow (which skips only the prompt) lets a change run before the plan is approved.
  const plans = subject.tool.builtin !== undefined && PLAN_MODE_TOOLS.has(subject.tool.builtin);
  const planBlocks = mode === 'plan' && !evaluation.readOnly && !plans;
  if (!planBlocks && toolDecision.behavior === 'allow') return toolDecision;
  if (!planBlocks && hook?.decision === 'allow') return { behavior: 'allow', reason: hookReason };
  switch (mode) {
    case 'bypassPermissions':
      return { behavior: 'allow', reason: { kind: 'mode', mode } };
    case 'plan':
      if (planBlocks) {
        return {
          behavior: 'deny',
          message: `Plan mode is on: ${name} would change files or run commands. Keep exploring read-only, then present the plan for approval (ExitPlanMode) before making changes.`,
          reason: { kind: 'mode', mode },
        };
      }
      break;
    case 'acceptEdits':
      if (evaluation.acceptEdits && evaluation.approved === undefined)
        return { behavior: 'allow', reason: { kind: 'mode', mode } };
      break;
    case 'default':
    case 'dontAsk':
      break;
  }
  if (evaluation.approved) return { behavior: 'allow', reason: evaluation.approved };
  const pending = evaluation.pending.length > 0 ? `: ${evaluation.pending.slice(0, 5).join('; ')}` : '';
  return askOrDeny({
    mode,
    message: `${name} needs approval${pending}.`,
    reason: { kind: 'default', message: 'no rule or mode allows this call' },
    suggestions: evaluation.suggestions,
  });
}
