import type { Approver, CallSubject, HookGate, PermissionGate, PreToolUseOutcome } from '../contract/gates.js';
import type { CallApproval } from '../contract/permission.js';
import type { AnyTool } from '../contract/tool.js';
import type { ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import type { ResultStore } from '../results/result-store.js';
import type { CallControl } from './call-control.js';
import { outcomeText } from './outcome-text.js';
import type { ToolCallOutcome, ToolRunEvent } from './types.js';

/** The stages a call passes through, and how it reports back to its run. */
export type GateEnvironment = {
  readonly permissions: PermissionGate;
  readonly hooks: HookGate | undefined;
  readonly approver: Approver | undefined;
  readonly resultStore: ResultStore | undefined;
  readonly emit: (event: ToolRunEvent) => void;
  /**
   * The turn's signal, which hooks get: an abort of the turn cancels running hooks. (A call's own
   * signal is made only when read; answers never wait for a hook to notice.)
   */
  readonly runSignal: AbortSignal;
  /** The person chose "abort" in a permission dialog. */
  readonly abortRun: () => void;
  /** A hook asked to stop the turn after this run. */
  readonly requestStop: (reason: string) => void;
};

/** How a call ended and what the model gets for it. */
export type GateResult = { readonly outcome: ToolCallOutcome; readonly result: ToolResultBlock };

/**
 * One call on its way through the gate chain: the block the model sent, its tool, its control
 * (context and abort), the run's environment, and what the steps so far decided. Each step takes
 * it and hands on a new one; nothing in it is changed in place.
 */
export type CallInProgress = {
  readonly block: ToolUseBlock;
  readonly tool: AnyTool;
  readonly control: CallControl;
  readonly env: GateEnvironment;
  /** The input as parsed and checked so far; a hook or a person may have replaced the model's. */
  readonly input: unknown;
  /** The PreToolUse hooks' verdict; empty without hooks. */
  readonly hook: PreToolUseOutcome;
  /** How the call was approved, once the permission step approved it. */
  readonly approval?: CallApproval;
};

/** A step's answer: the call goes on (possibly changed), or it ended with this result. */
export type GateStep =
  { readonly ok: true; readonly call: CallInProgress } | { readonly ok: false; readonly result: GateResult };

type Failure = Exclude<ToolCallOutcome, { status: 'success' }>;

/** The error result of a call that did not succeed. */
export function failure(block: ToolUseBlock, outcome: Failure): GateResult {
  return {
    outcome,
    result: { type: 'tool_result', tool_use_id: block.id, content: outcomeText(outcome, block.name), is_error: true },
  };
}

/** A step that ends the call with this failure. */
export function stopWith(call: CallInProgress, outcome: Failure): GateStep {
  return { ok: false, result: failure(call.block, outcome) };
}

/** What hooks and gates are told about the call. */
export function subjectOf(call: CallInProgress): CallSubject {
  return { tool: call.tool, input: call.input, toolUseId: call.block.id, context: call.control };
}
