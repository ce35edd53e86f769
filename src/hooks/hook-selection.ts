import type { CallSubject } from '../contract/gates.js';
import type { HookEventName } from '../contract/hook-config.js';
import type { CompiledHook, HookRegistryOptions } from './hook-registry.js';
import type { HookInput, HookRun } from './hook-types.js';
import { observed } from './observe-hook-run.js';

/**
 * Starts the `async` hooks of `hooks` without waiting, each with the session's lifetime, and
 * returns the others. An async hook's run is reported when it ends and given to `onAsyncRun`;
 * it never joins the decision of the event that started it.
 */
export function startDetached(
  event: HookEventName,
  hooks: readonly CompiledHook[],
  input: HookInput,
  options: Pick<HookRegistryOptions, 'onAsyncRun' | 'lifetime'> & {
    readonly signal: AbortSignal;
    readonly observe: HookRegistryOptions['onHookRun'];
    readonly afterRuns: (event: HookEventName, runs: readonly HookRun[]) => readonly HookRun[];
  },
): readonly CompiledHook[] {
  if (hooks.every((hook) => hook.async !== true)) return hooks;
  const lifetime = options.lifetime ?? options.signal;
  for (const hook of hooks) {
    if (hook.async !== true) continue;
    void Promise.resolve(observed(options.observe, event, hook, input, lifetime)).then(
      (run) => {
        options.afterRuns(event, [run]);
        options.onAsyncRun?.(event, run);
      },
      () => undefined,
    );
  }
  return hooks.filter((hook) => hook.async !== true);
}

/** Identical commands once, whatever `if` brought each in: the first in settings order stays. */
export function onceEach(hooks: readonly CompiledHook[]): readonly CompiledHook[] {
  const seen = new Set<string>();
  return hooks.filter((hook) => {
    if (hook.dedupeKey === undefined) return true;
    if (seen.has(hook.dedupeKey)) return false;
    seen.add(hook.dedupeKey);
    return true;
  });
}

/** A judge's verdict on one `if`; one that cannot judge (it throws, or its promise rejects) lets the hook run. */
export function judgeCondition(
  judge: NonNullable<HookRegistryOptions['conditionMatches']>,
  condition: NonNullable<CompiledHook['condition']>,
  call: CallSubject,
): boolean | Promise<boolean> {
  try {
    const verdict = judge(condition, call);
    return verdict instanceof Promise ? verdict.catch(() => true) : verdict;
  } catch {
    return true;
  }
}
