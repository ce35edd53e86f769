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

/**
 * InstructionsLoaded hooks hear of each instruction file the host put in the system prompt, once,
 * when the session starts (`session_start`). They are the project's files (its folder and the
 * folders above it), so `Project`. The prompt keeps them through compaction, clear and resume:
 * nothing is loaded again, so nothing is told again.
 */
export async function announceInstructions(options: {
  readonly hooks: HookPlane;
  readonly hookSession: () => HookSession;
  readonly files: readonly string[];
  readonly signal: AbortSignal;
}): Promise<void> {
  if (!options.hooks.hasHooks('InstructionsLoaded')) return;
  for (const filePath of options.files)
    await options.hooks.instructionsLoaded({
      session: options.hookSession(),
      signal: options.signal,
      filePath,
      memoryType: 'Project',
      loadReason: 'session_start',
    });
}
