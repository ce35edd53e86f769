import type {
  Approver,
  ApprovalRequest,
  ApprovalResponse,
  CallSubject,
  HookGate,
  PermissionGate,
  PermissionRequestOutcome,
  PostToolUseFailureOutcome,
  PostToolUseOutcome,
  PreToolUseOutcome,
} from '../contract/gates.js';
import type { DenyDecision, PermissionDecision, RuleSuggestion } from '../contract/permission.js';

/** A permission gate driven by functions, for tests of the plane. Unset functions: no opinion. */
export function createFakePermissionGate(
  options: {
    readonly preCheck?: (subject: CallSubject) => DenyDecision | undefined;
    readonly decide?: (
      subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome },
    ) => PermissionDecision | Promise<PermissionDecision>;
  } = {},
): PermissionGate & { readonly remembered: RuleSuggestion[] } {
  const remembered: RuleSuggestion[] = [];
  return {
    remembered,
    preCheck: (subject) => options.preCheck?.(subject),
    decide: (subject) =>
      options.decide?.(subject) ?? {
        behavior: 'allow',
        reason: { kind: 'default', message: 'fake gate allows everything' },
      },
    remember: (suggestion) => {
      remembered.push(suggestion);
    },
  };
}

/** A hook gate driven by functions; unset events are no-ops. */
export function createFakeHookGate(
  options: {
    readonly preToolUse?: (subject: CallSubject) => PreToolUseOutcome | Promise<PreToolUseOutcome>;
    readonly postToolUse?: (
      subject: CallSubject & { readonly output: unknown },
    ) => PostToolUseOutcome | Promise<PostToolUseOutcome>;
    readonly postToolUseFailure?: (
      subject: CallSubject & { readonly error: string },
    ) => PostToolUseFailureOutcome | Promise<PostToolUseFailureOutcome>;
    readonly permissionRequest?: (
      subject: CallSubject & { readonly decision: PermissionDecision },
    ) => PermissionRequestOutcome | Promise<PermissionRequestOutcome>;
  } = {},
): HookGate {
  const none = {};
  return {
    preToolUse: (subject) => options.preToolUse?.(subject) ?? none,
    postToolUse: (subject) => options.postToolUse?.(subject) ?? none,
    postToolUseFailure: (subject) => options.postToolUseFailure?.(subject) ?? none,
    permissionRequest: (subject) => options.permissionRequest?.(subject) ?? none,
  };
}

/** An approver answering from a function (or a fixed answer), recording every request. */
export function createFakeApprover(
  answer: ApprovalResponse | ((request: ApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>),
): Approver & { readonly requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    async request(request, signal) {
      requests.push(request);
      signal.throwIfAborted();
      return typeof answer === 'function' ? answer(request) : answer;
    },
  };
}
