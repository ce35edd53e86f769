import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';

/** Why a conversation (re)starts, as SessionStart hooks and their matchers see it. */
export type StartSource = 'startup' | 'resume' | 'clear' | 'compact';

/**
 * SessionStart hooks and the context they add: it is kept until the next prompt, which carries it
 * to the model (once).
 */
export function createStartContext(options: {
  readonly hooks: HookPlane;
  readonly hookSession: () => HookSession;
  readonly model: string;
  readonly signal: AbortSignal;
}) {
  let pending: readonly string[] = [];
  return {
    async start(source: StartSource): Promise<void> {
      if (!options.hooks.hasHooks('SessionStart')) return;
      const started = await options.hooks.sessionStart({
        session: options.hookSession(),
        signal: options.signal,
        source,
        model: options.model,
      });
      pending = [...pending, ...started.additionalContext];
    },
    take(): readonly string[] {
      const taken = pending;
      pending = [];
      return taken;
    },
  };
}
