import type { ToolCallContext, ToolCheckContext, ValidationResult } from '../../contract/tool.js';
import { TEMPORARY_JOURNAL } from '../fs-helpers/temporary-files.js';
import { toolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { commitGuardedWrite, describeConcurrentWrite } from './commit-guarded-write.js';
import { getFileStateStore, NO_FILE_STATE_STORE_MESSAGE } from './file-state-store.js';
import type { GuardedFile } from './load-guarded-file.js';

/** A write a tool has planned: the file as it was loaded (for the guard) and the bytes to write. */
export type PlannedWrite = { readonly ok: true; readonly file: GuardedFile; readonly data: Buffer };
/** A plan, or why there is none (a message for the model). */
export type WritePlanResult<P extends PlannedWrite> = P | { readonly ok: false; readonly message: string };

/** `validateInput` for a guarded writer: the plan's refusal, if any, before anything runs. */
export function validateByPlan<I>(
  plan: (input: I, context: ToolCheckContext) => Promise<WritePlanResult<PlannedWrite>>,
) {
  return async (input: I, context: ToolCheckContext): Promise<ValidationResult> => {
    const result = await plan(input, context);
    return result.ok ? { ok: true } : { ok: false, message: result.message };
  };
}

/**
 * The call of a guarded writer (Edit, Write, NotebookEdit): plans again (the file may have
 * changed since validation), commits through the write guard, and hands the plan to `done` for
 * the tool's own output; a late concurrent writer becomes the output's `warning`.
 */
export async function planAndCommit<I, R extends WritePlanResult<PlannedWrite>, O extends object>(options: {
  readonly input: I;
  readonly context: ToolCallContext;
  readonly filePath: string;
  readonly plan: (input: I, context: ToolCheckContext) => Promise<R>;
  readonly done: (plan: Extract<R, { readonly ok: true }>) => O;
}): Promise<(O & { readonly warning?: string }) | ToolFailure> {
  const result = await options.plan(options.input, options.context);
  if (!result.ok) return toolFailure(result.message);
  const store = getFileStateStore(options.context.services);
  if (store === undefined) return toolFailure(NO_FILE_STATE_STORE_MESSAGE);
  const committed = await commitGuardedWrite({
    filePath: options.filePath,
    file: result.file,
    data: result.data,
    store,
    signal: options.context.signal,
    journal: options.context.services.get(TEMPORARY_JOURNAL),
  });
  if (!committed.ok) return toolFailure(committed.message);
  const output: O & { readonly warning?: string } = options.done(result as Extract<R, { readonly ok: true }>);
  return committed.concurrentWrite
    ? { ...output, warning: describeConcurrentWrite(options.filePath, committed.concurrentWrite) }
    : output;
}
