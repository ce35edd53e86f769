import { hookLabel, type HookConfig, type HookMatcherConfig, type HookSettings } from '../contract/hook-config.js';
import { hookEnvironment, hookScriptProblem, unreachableMatcherReason } from '../session/index.js';

/** One hook in force, as `hooks list` shows it. */
export type ListedHook = {
  readonly event: string;
  readonly matcher: string;
  readonly type: HookConfig['type'];
  readonly run: string;
  readonly if?: string;
  readonly timeout?: number;
  readonly failClosed?: boolean;
  readonly async?: boolean;
  readonly source: string;
  readonly file?: string;
  /**
   * Why it cannot run, when that is known before it runs: its script is missing or not executable,
   * or its matcher can match nothing toolplane sends for its event (a Notification `idle_prompt`).
   */
  readonly problem?: string;
};

type Where = { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> };

/** Every hook of `hooks`, event by event, each with its source and, for a script that cannot run, why. */
export function listHooks(hooks: HookSettings, where: Where): ListedHook[] {
  // Scripts are checked with the environment a run gives hooks, so `"$CLAUDE_PROJECT_DIR"/…` resolves as it will.
  const env = hookEnvironment(where.env, where.cwd);
  return [...hooks].flatMap(([event, groups]) =>
    groups.flatMap((group) =>
      listGroup(event, group, { cwd: where.cwd, env }, unreachableMatcherReason(event, group.matcher)),
    ),
  );
}

function listGroup(event: string, group: HookMatcherConfig, where: Where, unmatched: string | undefined): ListedHook[] {
  return group.hooks.map((hook) => {
    const run = hookLabel(hook);
    const problem = unmatched ?? (hook.type === 'command' ? hookScriptProblem(hook.command, where) : undefined);
    return {
      event,
      matcher: group.matcher === undefined || group.matcher === '' ? '*' : group.matcher,
      type: hook.type,
      run,
      ...(hook.if !== undefined ? { if: hook.if } : {}),
      ...(hook.timeout !== undefined ? { timeout: hook.timeout } : {}),
      ...(hook.failClosed !== undefined ? { failClosed: hook.failClosed } : {}),
      ...(hook.async === true ? { async: true } : {}),
      source: group.source,
      ...(group.file !== undefined ? { file: group.file } : {}),
      ...(problem !== undefined ? { problem } : {}),
    };
  });
}

/** One line for a person: event, matcher, `if`, what runs, limits, where it came from, and why it cannot run. */
export function describeListedHook(hook: ListedHook): string {
  const parts = [
    `${hook.event}  ${hook.matcher}`,
    hook.if !== undefined ? `if ${hook.if}` : undefined,
    `${hook.type} ${JSON.stringify(hook.run)}`,
    hook.timeout !== undefined ? `timeout ${hook.timeout}s` : undefined,
    hook.failClosed ? 'failClosed' : undefined,
    hook.async ? 'async' : undefined,
    `(${hook.file ?? hook.source})`,
    hook.problem !== undefined ? `— cannot run: ${hook.problem}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join('  ');
}
