import type { AnyTool, ToolCheckContext } from './tool.js';
import type { DecisionReason, DenyDecision, PermissionDecision, RuleSuggestion } from './permission.js';

/**
 * The seams between the plane (execution/) and the stages that decide about a call
 * (permissions/, hooks/). The plane only knows these interfaces; each has a fake in testing/.
 */

/** One call, after its input has been parsed against the tool's schema. */
export type CallSubject = {
  readonly tool: AnyTool;
  /** The parsed input. */
  readonly input: unknown;
  readonly toolUseId: string;
  readonly context: ToolCheckContext;
};

/** What PreToolUse hooks concluded, aggregated across hooks (most restrictive wins). */
export type PreToolUseOutcome = {
  readonly decision?: 'allow' | 'deny' | 'ask';
  /** Why; for a deny, what the model is told. */
  readonly reason?: string;
  /** Which hook decided (its command or name). */
  readonly hook?: string;
  /** A rewritten input; the plane parses and checks it again. */
  readonly updatedInput?: unknown;
  /** Text added for the model alongside the result. */
  readonly additionalContext?: readonly string[];
  /** `continue: false`: stop the turn after this call, with this reason. */
  readonly stopReason?: string;
};

export type PostToolUseOutcome = {
  readonly additionalContext?: readonly string[];
  /** Replaces an external tool's raw output before it is mapped (ignored for built-ins). */
  readonly updatedOutput?: unknown;
  /** `decision: "block"`: the reason is shown to the model with the result. */
  readonly blockReason?: string;
  readonly stopReason?: string;
};

export type PostToolUseFailureOutcome = {
  readonly additionalContext?: readonly string[];
};

/** What PermissionRequest hooks decided for an `ask`; an empty object leaves it to the approver. */
export type PermissionRequestOutcome = {
  readonly decision?: 'allow' | 'deny';
  readonly updatedInput?: unknown;
  /** Rules the hook asks to save with its allow (`updatedPermissions` of type `addRules`). */
  readonly remember?: readonly RuleSuggestion[];
  /** With a deny: stop the turn after this call (`interrupt: true`). */
  readonly interrupt?: boolean;
  readonly message?: string;
  readonly hook?: string;
};

/** Runs hooks around calls. Every method must resolve (a crashing hook is its own concern). */
export interface HookGate {
  preToolUse(subject: CallSubject, signal: AbortSignal): PreToolUseOutcome | Promise<PreToolUseOutcome>;
  postToolUse(
    subject: CallSubject & { readonly output: unknown },
    signal: AbortSignal,
  ): PostToolUseOutcome | Promise<PostToolUseOutcome>;
  postToolUseFailure(
    subject: CallSubject & { readonly error: string },
    signal: AbortSignal,
  ): PostToolUseFailureOutcome | Promise<PostToolUseFailureOutcome>;
  permissionRequest(
    subject: CallSubject & { readonly decision: PermissionDecision },
    signal: AbortSignal,
  ): PermissionRequestOutcome | Promise<PermissionRequestOutcome>;
}

/** Decides whether a parsed call may run. */
export interface PermissionGate {
  /**
   * The deny pre-check: a deny rule that covers this call, checked before any tool logic
   * (validateInput) runs. Must be cheap and synchronous.
   */
  preCheck(subject: CallSubject): DenyDecision | undefined;
  /**
   * The decision: deny rules, safety checks, ask rules, the tool's own check, the mode, allow
   * rules. `passthrough` is treated as `ask` by the plane. `hookDecision` is for information (a
   * hook's allow may skip a prompt no rule insists on): the plane itself combines the hooks'
   * verdict with this decision, most restrictive first, so a gate cannot drop a hook's deny or ask.
   */
  decide(
    subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome },
  ): PermissionDecision | Promise<PermissionDecision>;
  /** Saves a rule a person chose with "always allow" (or deny). */
  remember?(suggestion: RuleSuggestion): void | Promise<void>;
}

/** What the plane asks a person. */
export type ApprovalRequest = {
  readonly tool: AnyTool;
  readonly input: unknown;
  readonly toolUseId: string;
  readonly message: string;
  /** The tool's one-line description of this input. */
  readonly summary: string;
  readonly reason: DecisionReason;
  readonly suggestions: readonly RuleSuggestion[];
};

/** A person's answer. */
export type ApprovalResponse =
  | {
      readonly behavior: 'allow';
      /** The person edited the input; it is parsed and checked again. */
      readonly updatedInput?: unknown;
      /** "Always": save this rule. */
      readonly remember?: RuleSuggestion;
    }
  | { readonly behavior: 'deny'; readonly feedback?: string }
  | { readonly behavior: 'abort' };

/** A channel to a person who can answer `ask` decisions. */
export interface Approver {
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalResponse>;
}
