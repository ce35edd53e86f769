import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';
import type { AfterToolsReport } from './types.js';

/**
 * The host's `afterTools`, with ConfigChange hooks told of each settings file it found changed.
 * A session never applies a settings change while it runs, so a hook's block (exit code 2 or
 * `decision: "block"`) has nothing to stop: it is reported to the person (`warn`, where hook
 * diagnostics go) with its reason, and the
 * host's own handling of the file (the CLI keeps it held until a person confirms it) is unchanged.
 */
export function tellConfigChanges(
  afterTools: (signal?: AbortSignal) => Promise<AfterToolsReport>,
  context: {
    readonly hooks: HookPlane;
    readonly hookSession: () => HookSession;
    readonly warn: (line: string) => void;
  },
): (signal?: AbortSignal) => Promise<readonly string[]> {
  return async (signal) => {
    const report = await afterTools(signal);
    for (const change of report.changedSettings) {
      const outcome = await context.hooks.configChange({
        session: context.hookSession(),
        signal: signal ?? new AbortController().signal,
        source: change.source,
        filePath: change.file,
      });
      if (outcome.blocked !== undefined)
        context.warn(
          `toolplane: a ConfigChange hook blocked the change to ${change.file}: ${outcome.blocked} (the change does not apply to this session in any case)`,
        );
    }
    return report.notices;
  };
}
