export { createHookGate, type CreateHookGateOptions, type HookPlane } from './create-hook-gate.js';
export {
  createLifecycleHooks,
  type LifecycleHooks,
  type LifecycleHooksOptions,
  type PreCompactOutcome,
  type StopOutcome,
  type UserPromptSubmitOutcome,
} from './lifecycle-hooks.js';
export {
  createHookRegistry,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type CompiledHook,
  type HookRegistry,
  type HookRegistryOptions,
} from './hook-registry.js';
export { buildHookInput, toolInputForHooks, type BuildHookInputOptions, type HookSession } from './hook-input.js';
export { compileMatcher, type CompiledMatcher } from './compile-matcher.js';
export {
  hookOutputSchema,
  parseHookStdout,
  capHookText,
  HOOK_TEXT_LIMIT,
  type HookOutput,
  type ParsedStdout,
} from './parse-hook-output.js';
export { runCommandHook, type CommandHookRun, type RunCommandHookOptions } from './run-command-hook.js';
export type { FunctionHook, HookDiagnostic, HookInput, HookRun } from './hook-types.js';
export type { HookRunEvent, HookRunners } from './hook-registry.js';
export { RUNNER_HOOK_TIMEOUT_SECONDS } from './runner-hooks.js';
export {
  SENT_VALUES,
  unreachableHookMessages,
  unreachableMatcherReason,
  type ConfigChangeSource,
  type InstructionsLoadReason,
  type InstructionsMemoryType,
  type NotificationType,
  type StopFailureError,
} from './event-values.js';
export { stopFailureOf, type StopFailureCause } from './stop-failure-error.js';
