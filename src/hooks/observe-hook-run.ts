import type { HookEventName } from '../contract/hook-config.js';
import type { CompiledHook } from './hook-registry.js';
import type { HookInput, HookRun } from './hook-types.js';

/** A hook starting (`run` absent) or ending (with its run), under an id both share. */
export type HookRunEvent = {
  readonly id: string;
  readonly event: HookEventName;
  readonly hook: string;
  /** The call it is about, for the events of one tool call (their input names it). */
  readonly toolUseId?: string;
  readonly run?: HookRun;
};

let hookRunCount = 0;

/**
 * Runs `hook`, telling `observe` (when there is one) of its start and of its end (compiled hooks
 * resolve, a failure as an error run).
 */
export function observed(
  observe: ((event: HookRunEvent) => void) | undefined,
  event: HookEventName,
  hook: CompiledHook,
  input: HookInput,
  signal: AbortSignal,
): HookRun | Promise<HookRun> {
  if (observe === undefined) return hook.run(input, signal);
  hookRunCount += 1;
  const id = `hook-${process.pid}-${hookRunCount}`;
  const call = typeof input['tool_use_id'] === 'string' ? { toolUseId: input['tool_use_id'] } : {};
  observe({ id, event, hook: hook.label, ...call });
  const finish = (run: HookRun): HookRun => {
    observe({ id, event, hook: hook.label, ...call, run });
    return run;
  };
  const run = hook.run(input, signal);
  return run instanceof Promise ? run.then(finish) : finish(run);
}
