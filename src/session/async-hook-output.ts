import type { HookEventName } from '../contract/hook-config.js';
import type { HookRun } from '../hooks/hook-types.js';

/**
 * What `async` hooks say after the call that started them went on: each one's `additionalContext`
 * and `systemMessage` go with the next request (they never decided anything), an exit 2 (a no)
 * is told by name and goes with it too, and at close the hooks still running are stopped.
 */
export type AsyncHookOutput = {
  /** Aborted at close: async hooks still running are stopped. */
  readonly lifetime: AbortSignal;
  onAsyncRun(event: HookEventName, run: HookRun): void;
  /** What arrived since the last prompt; taken once. */
  take(): readonly string[];
  /** The session closes. */
  end(): void;
};

export function createAsyncHookOutput(warn: (line: string) => void): AsyncHookOutput {
  const lifetime = new AbortController();
  let pending: string[] = [];
  return {
    lifetime: lifetime.signal,
    onAsyncRun(event, run) {
      // A crash or a timeout is reported by the hook plane, as for any hook; an exit 2 blocks
      // nothing here, so it is only told.
      if (run.status === 'blocking') {
        const said = run.message ?? 'exit code 2';
        warn(`hook ${event} ${JSON.stringify(run.hook)} (async): ${said}`);
        // Too late to block; the model still learns the objection.
        pending = [...pending, `${event} hook ${run.hook} (async) objected, after the fact: ${said}`];
        return;
      }
      if (run.status !== 'success') return;
      const said = [run.output?.hookSpecificOutput?.additionalContext, run.output?.systemMessage].filter(
        (text): text is string => typeof text === 'string' && text.trim() !== '',
      );
      pending = [...pending, ...said.map((text) => `${event} hook ${run.hook} (async) said: ${text}`)];
    },
    take() {
      const taken = pending;
      pending = [];
      return taken;
    },
    end() {
      lifetime.abort(new Error('the session closed'));
    },
  };
}
