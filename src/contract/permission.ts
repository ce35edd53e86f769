/**
 * Permission decisions: what may run. Decisions are unions, never booleans, and every one carries
 * the reason that produced it, so people and `permissions explain` can see why.
 */

/** Permission modes, with the reference system's meaning. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'dontAsk',
  'bypassPermissions',
];

/** Where a rule came from. */
export type RuleSource = 'managed' | 'cli' | 'localSettings' | 'projectSettings' | 'userSettings' | 'session';

/** Why a decision was made. */
export type DecisionReason =
  | { readonly kind: 'rule'; readonly rule: string; readonly source: RuleSource; readonly file?: string }
  | { readonly kind: 'mode'; readonly mode: PermissionMode }
  | { readonly kind: 'hook'; readonly hook: string; readonly message?: string }
  | { readonly kind: 'tool'; readonly message: string }
  | { readonly kind: 'safety'; readonly message: string }
  | { readonly kind: 'read-only'; readonly message: string }
  | { readonly kind: 'approver'; readonly message?: string }
  | { readonly kind: 'no-approver'; readonly message: string }
  | { readonly kind: 'default'; readonly message: string };

/** How a call that is about to run was approved, set by the plane (never by a tool or a hook). */
export type CallApproval = {
  /**
   * Who approved it: the built-in read-only knowledge, a rule, the permission mode, the tool's own
   * check, a PreToolUse or PermissionRequest hook, or a person answering a prompt.
   */
  readonly by: 'read-only' | 'rule' | 'mode' | 'tool' | 'hook' | 'person';
  /** The analysis judged the call read-only (also when a rule or a mode also allowed it). */
  readonly readOnly: boolean;
};

/** A rule the approver may offer to save ("always allow"), with the scope it would be saved to. */
export type RuleSuggestion = {
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  readonly destination: 'session' | 'localSettings' | 'projectSettings' | 'userSettings';
  /** Human words for what the rule covers, shown before it is saved. */
  readonly covers?: string;
};

export type AllowDecision = {
  readonly behavior: 'allow';
  /** The analysis judged the call read-only (a sandboxed Bash command then gets the read-only profile). */
  readonly readOnly?: boolean;
  /** Replaces the call's input (re-checked by the plane before it runs). */
  readonly updatedInput?: unknown;
  readonly reason: DecisionReason;
};

export type DenyDecision = {
  readonly behavior: 'deny';
  /** What the model is told. */
  readonly message: string;
  readonly reason: DecisionReason;
};

export type AskDecision = {
  readonly behavior: 'ask';
  /** What the person is asked. */
  readonly message: string;
  readonly reason: DecisionReason;
  readonly suggestions?: readonly RuleSuggestion[];
};

/** The tool has no opinion; the rules and the mode decide. */
export type PassthroughDecision = {
  readonly behavior: 'passthrough';
  readonly message?: string;
  readonly reason?: DecisionReason;
};

export type PermissionDecision = AllowDecision | DenyDecision | AskDecision | PassthroughDecision;

/** Renders a decision reason as one line for people and for the model. */
export function describeReason(reason: DecisionReason): string {
  switch (reason.kind) {
    case 'rule':
      return `rule ${reason.rule} from ${reason.file ?? reason.source}`;
    case 'mode':
      return `permission mode ${reason.mode}`;
    case 'hook':
      return reason.message ? `hook ${reason.hook}: ${reason.message}` : `hook ${reason.hook}`;
    case 'tool':
    case 'safety':
    case 'read-only':
    case 'no-approver':
    case 'default':
      return reason.message;
    case 'approver':
      return reason.message ? `the person: ${reason.message}` : 'the person';
  }
}

/**
 * One permission rule as loaded from a settings source. The settings loader produces these; the
 * permission engine consumes them. `root` anchors `/`-rooted path rules: the project root for
 * project files, the user folder for user settings, the file's folder for `--settings FILE`, the
 * working folder for inline JSON.
 */
export type PermissionRuleEntry = {
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  readonly source: RuleSource;
  /** The settings file it came from, when it came from a file. */
  readonly file?: string;
  readonly root: string;
};
