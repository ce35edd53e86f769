import { describeError } from '../errors/toolplane-error.js';
import type { ToolResultBlock, ToolResultContentBlock } from '../messages/types.js';
import { emptyResultText, governResultSize, isEmptyContent } from '../results/govern-size.js';
import { failure, subjectOf, type CallInProgress, type GateResult } from './call-in-progress.js';

/**
 * Runs an approved call, then PostToolUse (or PostToolUseFailure) hooks, maps the output for the
 * model and applies the tool's size limit. The PreToolUse hooks' added context goes with the result.
 */
export async function executeCall(call: CallInProgress): Promise<GateResult> {
  const { tool, block, control, env } = call;
  let output: unknown;
  try {
    output = await tool.call(call.input, control);
  } catch (error) {
    if (control.stopped) return failure(block, { status: 'aborted', cause: 'abort' });
    const message = describeError(error);
    const extra = await postFailureContext(call, message);
    const failed = failure(block, { status: 'failed', message });
    return extra.length === 0 ? failed : { ...failed, result: withContext(failed.result, extra) };
  }

  const notes = [...(call.hook.additionalContext ?? [])];
  if (env.hooks) {
    try {
      const post = await env.hooks.postToolUse({ ...subjectOf(call), output }, env.runSignal);
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
    return failure(block, { status: 'failed', message: `the result could not be mapped: ${describeError(error)}` });
  }
  const empty = isEmptyContent(mapped.content);
  let result: ToolResultBlock = await governResultSize(
    {
      type: 'tool_result',
      tool_use_id: block.id,
      content: empty ? (mapped.trailer ? '' : emptyResultText(tool.userFacingName(call.input))) : mapped.content,
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

async function postFailureContext(call: CallInProgress, error: string): Promise<string[]> {
  const hooks = call.env.hooks;
  if (!hooks) return [];
  try {
    const outcome = await hooks.postToolUseFailure({ ...subjectOf(call), error }, call.env.runSignal);
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
