import { describeError } from '../errors/toolplane-error.js';
import type { Approver, CallSubject, HookGate, PermissionGate, PreToolUseOutcome } from '../contract/gates.js';
import type {
  AskDecision,
  CallApproval,
  DecisionReason,
  PassthroughDecision,
  PermissionDecision,
} from '../contract/permission.js';
import type { AnyTool, ToolCheckContext } from '../contract/tool.js';
import { approvalOf } from './approval-of.js';
import type { CallControl } from './call-control.js';
import type { ToolResultBlock, ToolResultContentBlock, ToolUseBlock } from '../messages/types.js';
import { getInputParser } from '../schema/parse-input.js';
import type { ResultStore } from '../results/result-store.js';
import { emptyResultText, governResultSize, isEmptyContent } from '../results/govern-size.js';
import type { PreparedCall } from './prepare-call.js';
import { outcomeText } from './outcome-text.js';
import { combineHookVerdict } from './combine-hook-verdict.js';
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

type Failure = Exclude<ToolCallOutcome, { status: 'success' }>;

function fail(block: ToolUseBlock, outcome: Failure): GateResult {
  return {
    outcome,
    result: { type: 'tool_result', tool_use_id: block.id, content: outcomeText(outcome, block.name), is_error: true },
  };
}

/** The input a call finally runs with, after hooks and people may have replaced it. */
type Checked =
  | { readonly ok: true; readonly input: unknown; readonly approval?: CallApproval }
  | { readonly ok: false; readonly result: GateResult };

/**
 * Runs one call through the gate chain, in order: abort check, schema parse, deny pre-check,
 * validateInput, PreToolUse hooks, the permission decision (then PermissionRequest hooks and the
 * approver for `ask`; no approver means deny), the call (`onCallStart` runs just before it, so a
 * time limit does not count the time a person takes to answer), PostToolUse or PostToolUseFailure hooks,
 * mapping for the model and the size limit. Never throws: every path ends in a result.
 * An input replaced by a hook or a person is parsed and checked again.
 */
export async function runGateChain(
  prepared: PreparedCall,
  context: CallControl,
  env: GateEnvironment,
  onCallStart?: () => void,
): Promise<GateResult> {
  const { block, tool, parsed } = prepared;
  if (!tool || !parsed) return fail(block, { status: 'unknown-tool' });
  if (context.stopped) return fail(block, { status: 'aborted', cause: 'abort' });
  if (!parsed.ok) return fail(block, { status: 'invalid-input', message: parsed.message });

  const checkContext: ToolCheckContext = context;
  let checked = await check(tool, block, parsed.value, checkContext, env.permissions);
  if (!checked.ok) return checked.result;

  let pre: PreToolUseOutcome = {};
  if (env.hooks) {
    try {
      pre = await env.hooks.preToolUse(subject(tool, block, checked.input, checkContext), env.runSignal);
    } catch (error) {
      // The hook runner must resolve; if it throws anyway, nothing may run on its say-so.
      return fail(block, {
        status: 'hook-blocked',
        hook: undefined,
        message: `the hook runner failed: ${describeError(error)}`,
      });
    }
    if (pre.stopReason) env.requestStop(pre.stopReason);
    if (pre.decision === 'deny') {
      return fail(block, { status: 'hook-blocked', hook: pre.hook, message: pre.reason ?? 'no reason given' });
    }
    if (pre.updatedInput !== undefined) {
      checked = await recheck(tool, block, pre.updatedInput, checkContext, env.permissions);
      if (!checked.ok) return checked.result;
    }
  }

  let decision: PermissionDecision;
  try {
    decision = await env.permissions.decide({
      tool,
      input: checked.input,
      toolUseId: block.id,
      context: checkContext,
      hookDecision: pre,
    });
  } catch (error) {
    decision = {
      behavior: 'ask',
      message: `The permission check failed (${describeError(error)}).`,
      reason: { kind: 'safety', message: `permission check failed: ${describeError(error)}` },
    };
  }
  // Here, not in each gate: whatever gate the host wrote, a hook's deny or ask holds.
  decision = combineHookVerdict({ decision, hook: pre, toolName: tool.name });
  if (decision.behavior === 'deny') {
    env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'deny', reason: decision.reason });
    return fail(block, { status: 'denied', message: decision.message, reason: decision.reason });
  }
  let approval: CallApproval;
  if (decision.behavior === 'allow') {
    env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'allow', reason: decision.reason });
    approval = approvalOf(decision);
    if (decision.updatedInput !== undefined) {
      checked = await recheck(tool, block, decision.updatedInput, checkContext, env.permissions);
      if (!checked.ok) return checked.result;
      // The replacement was not the input the analysis judged; it runs as allowed, never as read-only.
      approval = { ...approval, readOnly: false };
    }
  } else {
    const resolved = await resolveAsk(tool, block, checked.input, decision, context, env);
    if (!resolved.ok) return resolved.result;
    checked = resolved;
    approval = resolved.approval ?? { by: 'person', readOnly: false };
  }

  if (context.stopped) return fail(block, { status: 'aborted', cause: 'abort' });
  onCallStart?.();
  context.approval = approval;
  return execute(tool, block, checked.input, context, env, pre.additionalContext ?? []);
}

function subject(tool: AnyTool, block: ToolUseBlock, input: unknown, context: ToolCheckContext): CallSubject {
  return { tool, input, toolUseId: block.id, context };
}

async function check(
  tool: AnyTool,
  block: ToolUseBlock,
  input: unknown,
  context: ToolCheckContext,
  permissions: PermissionGate,
): Promise<Checked> {
  let denial;
  try {
    denial = permissions.preCheck(subject(tool, block, input, context));
  } catch (error) {
    denial = {
      behavior: 'deny' as const,
      message: 'The permission pre-check failed, so the call was refused.',
      reason: { kind: 'safety' as const, message: `deny pre-check failed: ${describeError(error)}` },
    };
  }
  if (denial)
    return { ok: false, result: fail(block, { status: 'denied', message: denial.message, reason: denial.reason }) };
  try {
    const validation = await tool.validateInput(input, context);
    if (!validation.ok)
      return { ok: false, result: fail(block, { status: 'validation-failed', message: validation.message }) };
  } catch (error) {
    return {
      ok: false,
      result: fail(block, { status: 'validation-failed', message: `Input check failed: ${describeError(error)}` }),
    };
  }
  return { ok: true, input };
}

async function recheck(
  tool: AnyTool,
  block: ToolUseBlock,
  replacement: unknown,
  context: ToolCheckContext,
  permissions: PermissionGate,
): Promise<Checked> {
  const parsed = getInputParser(tool)(replacement);
  if (!parsed.ok) {
    return {
      ok: false,
      result: fail(block, {
        status: 'invalid-input',
        message: `The replaced input (from a hook or a person) is invalid:\n${parsed.message}`,
      }),
    };
  }
  return check(tool, block, parsed.value, context, permissions);
}

async function resolveAsk(
  tool: AnyTool,
  block: ToolUseBlock,
  input: unknown,
  decision: AskDecision | PassthroughDecision,
  context: CallControl,
  env: GateEnvironment,
): Promise<Checked> {
  const message = decision.message ?? `${tool.name} needs permission to run.`;
  const reason: DecisionReason = decision.reason ?? { kind: 'default', message: 'no rule allows this call' };
  env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'ask', reason });
  const callSubject = subject(tool, block, input, context);

  if (env.hooks) {
    let verdict;
    try {
      verdict = await env.hooks.permissionRequest({ ...callSubject, decision }, env.runSignal);
    } catch {
      verdict = {};
    }
    if (verdict.decision === 'deny') {
      if (verdict.interrupt)
        env.requestStop(
          `a PermissionRequest hook (${verdict.hook ?? 'PermissionRequest'}) denied ${tool.name} and stopped the turn`,
        );
      return {
        ok: false,
        result: fail(block, {
          status: 'denied',
          message: verdict.message ?? '',
          reason: {
            kind: 'hook',
            hook: verdict.hook ?? 'PermissionRequest',
            ...(verdict.message ? { message: verdict.message } : {}),
          },
        }),
      };
    }
    if (verdict.decision === 'allow') {
      for (const rule of verdict.remember ?? []) {
        try {
          await env.permissions.remember?.(rule);
        } catch {
          // Saving is a convenience; this call is approved by the hook either way.
        }
      }
      const byHook: CallApproval = { by: 'hook', readOnly: false };
      if (verdict.updatedInput === undefined) return { ok: true, input, approval: byHook };
      const replaced = await approveReplacement(tool, block, verdict.updatedInput, context, env);
      return replaced.ok ? { ...replaced, approval: byHook } : replaced;
    }
  }

  if (!env.approver) {
    return {
      ok: false,
      result: fail(block, {
        status: 'denied',
        message: `${message} No one is available to approve it, so it was denied.`,
        reason: { kind: 'no-approver', message: `no approver (${describeReasonShort(reason)})` },
      }),
    };
  }
  let summary: string;
  try {
    summary = tool.describeInput(input);
  } catch {
    summary = tool.name;
  }
  env.emit({ type: 'permission-request', toolUseId: block.id, toolName: tool.name, summary, message });
  let response;
  try {
    response = await env.approver.request(
      {
        tool,
        input,
        toolUseId: block.id,
        message,
        summary,
        reason,
        suggestions: decision.behavior === 'ask' ? (decision.suggestions ?? []) : [],
      },
      context.signal,
    );
  } catch (error) {
    if (context.stopped) return { ok: false, result: fail(block, { status: 'aborted', cause: 'abort' }) };
    return {
      ok: false,
      result: fail(block, {
        status: 'denied',
        message: 'The approval prompt failed, so the call was denied.',
        reason: { kind: 'no-approver', message: `approver failed: ${describeError(error)}` },
      }),
    };
  }
  switch (response.behavior) {
    case 'abort':
      env.abortRun();
      return { ok: false, result: fail(block, { status: 'aborted', cause: 'interrupt' }) };
    case 'deny':
      return {
        ok: false,
        result: fail(block, {
          status: 'denied',
          message: response.feedback ? `The user said: ${response.feedback}` : '',
          reason: { kind: 'approver', ...(response.feedback ? { message: response.feedback } : {}) },
        }),
      };
    case 'allow':
      if (response.remember && env.permissions.remember) {
        try {
          await env.permissions.remember(response.remember);
        } catch {
          // Saving the rule is a convenience; this call is approved either way.
        }
      }
      const byPerson: CallApproval = { by: 'person', readOnly: false };
      if (response.updatedInput === undefined) return { ok: true, input, approval: byPerson };
      const replaced = await approveReplacement(tool, block, response.updatedInput, context, env);
      return replaced.ok ? { ...replaced, approval: byPerson } : replaced;
  }
}

/**
 * An input that replaced the one an ask was about, when that ask was approved: it is parsed and
 * checked again, and decided again. The approval answers an ask, so a replacement that would only
 * ask runs; one the gate denies (the tool's own check, the mode) does not: deny beats allow.
 */
async function approveReplacement(
  tool: AnyTool,
  block: ToolUseBlock,
  replacement: unknown,
  context: CallControl,
  env: GateEnvironment,
): Promise<Checked> {
  const checked = await recheck(tool, block, replacement, context, env.permissions);
  if (!checked.ok) return checked;
  let decision: PermissionDecision;
  try {
    decision = await env.permissions.decide({ tool, input: checked.input, toolUseId: block.id, context });
  } catch (error) {
    decision = {
      behavior: 'deny',
      message: 'The permission check of the replaced input failed, so the call was refused.',
      reason: { kind: 'safety', message: `permission check failed: ${describeError(error)}` },
    };
  }
  if (decision.behavior !== 'deny') return checked;
  env.emit({ type: 'permission-decision', toolUseId: block.id, behavior: 'deny', reason: decision.reason });
  return { ok: false, result: fail(block, { status: 'denied', message: decision.message, reason: decision.reason }) };
}

function describeReasonShort(reason: DecisionReason): string {
  return reason.kind === 'rule' ? `ask rule ${reason.rule}` : reason.kind;
}

async function execute(
  tool: AnyTool,
  block: ToolUseBlock,
  input: unknown,
  context: CallControl,
  env: GateEnvironment,
  preContext: readonly string[],
): Promise<GateResult> {
  const callSubject = subject(tool, block, input, context);
  let output: unknown;
  try {
    output = await tool.call(input, context);
  } catch (error) {
    if (context.stopped) return fail(block, { status: 'aborted', cause: 'abort' });
    const message = describeError(error);
    const extra = env.hooks ? await postFailureContext(env.hooks, callSubject, message, env.runSignal) : [];
    const failed = fail(block, { status: 'failed', message });
    return extra.length === 0 ? failed : { ...failed, result: withContext(failed.result, extra) };
  }

  const notes = preContext.length > 0 ? [...preContext] : [];
  if (env.hooks) {
    try {
      const post = await env.hooks.postToolUse({ tool, input, toolUseId: block.id, context, output }, env.runSignal);
      if (post.updatedOutput !== undefined && tool.origin === 'external') output = post.updatedOutput;
      if (post.additionalContext) notes.push(...post.additionalContext);
      if (post.blockReason) notes.push(`A PostToolUse hook flagged this result: ${post.blockReason}`);
      if (post.stopReason) env.requestStop(post.stopReason);
    } catch {
      // A failing post hook cannot undo the call; the result still goes back.
    }
  }

  let mapped;
  try {
    mapped = tool.mapResult(output, block.id);
  } catch (error) {
    return fail(block, { status: 'failed', message: `the result could not be mapped: ${describeError(error)}` });
  }
  const empty = isEmptyContent(mapped.content);
  let result: ToolResultBlock = await governResultSize(
    {
      type: 'tool_result',
      tool_use_id: block.id,
      content: empty ? (mapped.trailer ? '' : emptyResultText(tool.userFacingName(input))) : mapped.content,
      ...(mapped.isError ? { is_error: true } : {}),
    },
    {
      limit: tool.maxResultSizeChars,
      store: env.resultStore,
      ...(mapped.trailer ? { trailer: mapped.trailer } : {}),
      ...(mapped.fullOutput ? { saved: mapped.fullOutput } : {}),
    },
  );
  if (notes.length > 0) result = withContext(result, notes);
  return { outcome: { status: 'success', isError: mapped.isError === true }, result };
}

async function postFailureContext(
  hooks: HookGate,
  callSubject: CallSubject,
  error: string,
  signal: AbortSignal,
): Promise<string[]> {
  try {
    const outcome = await hooks.postToolUseFailure({ ...callSubject, error }, signal);
    return [...(outcome.additionalContext ?? [])];
  } catch {
    return [];
  }
}

function withContext(result: ToolResultBlock, notes: readonly string[]): ToolResultBlock {
  const extra: ToolResultContentBlock[] = notes.map((note) => ({ type: 'text', text: note }));
  const content: ToolResultContentBlock[] =
    typeof result.content === 'string'
      ? [{ type: 'text', text: result.content }, ...extra]
      : [...result.content, ...extra];
  return { ...result, content };
}
