export { createPermissionEngine, type PermissionEngine, type PermissionEngineOptions } from './permission-engine.js';
export { explainDecision, type ExplainedDecision, type ExplainOptions } from './explain-decision.js';
export {
  initShellParser,
  isShellParserReady,
  MAX_SHELL_NESTING,
  parseShell,
  type ShellScript,
  type ShellCommand,
  type ShellRedirect,
} from './bash-parser.js';
export {
  parseRule,
  parseUsableRule,
  escapePathForRule,
  type ParsedRule,
  type RuleDiagnostic,
  type RuleBehavior,
} from './rule-parser.js';
export type { SourcedDiagnostic } from './rule-set.js';
export type { RuleCheckInput } from './validate-rules.js';
export {
  describeBuiltinTool,
  builtinToolNames,
  type BuiltinToolDescriptor,
  type ToolFamily,
} from './tool-descriptors.js';
export { bypassPermissionsNotice } from './bypass-notice.js';
export {
  buildSandboxPolicy,
  CREDENTIAL_STORES,
  SANDBOX_WRITE_PROTECTED,
  SANDBOX_WRITE_PROTECTED_WHEN_PRESENT,
  WRITABLE_CACHES,
  type SandboxPolicyOptions,
} from './sandbox-policy.js';
export {
  PROTECTED_PATHS,
  PROTECTED_PATH_EXCEPTIONS,
  protectedPathReason,
  protectedPathsIn,
  type ProtectedLocation,
  type ProtectedPath,
} from './protected-paths.js';
