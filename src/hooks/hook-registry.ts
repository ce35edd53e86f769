import type { CallSubject } from '../contract/gates.js';
import type { CommandHookConfig, HookEventName, HookSettings } from '../contract/hook-config.js';
import { hookLabel } from '../contract/hook-config.js';
import { compileHttpHook } from './run-http-hook.js';
import { scrubModelCredentials } from '../contract/scrub-env.js';
import { compileMatcher, type CompiledMatcher } from './compile-matcher.js';
import {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  hookTimeoutMs,
  type FunctionHook,
  type HookDiagnostic,
  type HookInput,
  type HookRun,
} from './hook-types.js';
import { capHookText, parseHookStdout, type HookOutput } from './parse-hook-output.js';
import { runCommandHook, type CommandHookRun } from './run-command-hook.js';
import { hookScriptProblem } from './hook-script-check.js';
import { observed, type HookRunEvent } from './observe-hook-run.js';
import { judgeCondition, onceEach, startDetached } from './hook-selection.js';
import { compileRunnerHook, runnerHookProblem, type HookRunners } from './runner-hooks.js';

export type { HookRunEvent } from './observe-hook-run.js';
export type { HookRunners } from './runner-hooks.js';

export { DEFAULT_HOOK_TIMEOUT_SECONDS } from './hook-types.js';

/** Options shared by every way of running hooks. */
export type HookRegistryOptions = {
  /** Command hooks from settings (`loadSettings(...).hooks`). */
  readonly settings?: HookSettings;
  readonly functionHooks?: readonly FunctionHook[];
  /** Given to command hooks as `TOOLPLANE_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`. */
  readonly projectDir: string;
  /** The host's environment, which command hooks inherit minus model-provider credentials. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The shell for command hooks; default `/bin/bash` when present, else `/bin/sh`. */
  readonly shell?: string;
  /** Receives hook failures that did not block, ignored output and `systemMessage`s. */
  readonly onDiagnostic?: (diagnostic: HookDiagnostic) => void;
  /** Sees each hook as it starts and as it ends (`--include-hook-events`). */
  readonly onHookRun?: (event: HookRunEvent) => void;
  /** Receives what an `async` hook said once it ended (it decided nothing). */
  readonly onAsyncRun?: (event: HookEventName, run: HookRun) => void;
  /** What runs `prompt`, `agent` and `mcp_tool` hooks; without it, such a hook is an error that protects nothing. */
  readonly runners?: HookRunners;
  /** How long `async` hooks may outlive the call that started them: aborted when the session closes. */
  readonly lifetime?: AbortSignal;
  /**
   * Judges a hook's `if` (a permission rule) against a call: true when the rule would match it.
   * Without it, or when it cannot judge (it throws), a hook with an `if` runs for every call its
   * matcher accepts: a guard that runs too often is safer than one that never runs.
   */
  readonly conditionMatches?: (
    condition: { readonly rule: string; readonly root: string | undefined },
    call: CallSubject,
  ) => boolean | Promise<boolean>;
};

/** One hook ready to run. */
export type CompiledHook = {
  readonly label: string;
  readonly source: HookRun['source'];
  readonly matcher: CompiledMatcher;
  /** Identical commands run once per event. */
  readonly dedupeKey: string | undefined;
  /** Started without waiting; its run never takes part in a decision. */
  readonly async?: boolean;
  /** Its `if`: the permission rule a call must match for it to start, and where its paths are anchored. */
  readonly condition?: { readonly rule: string; readonly root: string | undefined };
  run(input: HookInput, signal: AbortSignal): HookRun | Promise<HookRun>;
};

/** Hooks compiled per event, runnable in parallel. */
export type HookRegistry = {
  /** The hooks of `event` whose matcher accepts `target` (all of them when `target` is undefined). */
  matching(event: HookEventName, target: string | undefined): readonly CompiledHook[];
  /** Of `hooks`, those whose `if` the call matches (or that have none). */
  forCall(
    hooks: readonly CompiledHook[],
    call: CallSubject,
  ): readonly CompiledHook[] | Promise<readonly CompiledHook[]>;
  /** Runs hooks in parallel; synchronous when every hook is a synchronous function hook. */
  run(
    event: HookEventName,
    hooks: readonly CompiledHook[],
    input: HookInput,
    signal: AbortSignal,
  ): readonly HookRun[] | Promise<readonly HookRun[]>;
  report(diagnostic: HookDiagnostic): void;
};

const NONE: readonly CompiledHook[] = Object.freeze([]);

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** What the shell's own exit codes mean: the hook never ran, so it protected nothing. */
const SHELL_EXIT_MEANING: Readonly<Record<number, string>> = {
  126: ' (its script could not be run: not executable, or a missing interpreter)',
  127: ' (its command or script was not found)',
};

function describeExit(run: Extract<CommandHookRun, { kind: 'exited' }>): string {
  const how =
    run.exitSignal !== null
      ? `was killed by ${run.exitSignal}`
      : `exited with code ${String(run.exitCode)}${SHELL_EXIT_MEANING[run.exitCode ?? -1] ?? ''}`;
  const stderr = run.stderr.trim();
  return stderr === '' ? how : `${how}: ${capHookText(stderr)}`;
}

/** Turns how a command ended into a hook outcome, with the reference's exit-code meanings. */
function interpretCommandRun(
  run: CommandHookRun,
  config: CommandHookConfig,
  timeoutMs: number,
): Omit<HookRun, 'hook' | 'source' | 'failClosed'> {
  switch (run.kind) {
    case 'cancelled':
      return { status: 'cancelled', message: 'cancelled before it finished' };
    case 'spawn-error':
      return { status: 'error', message: `could not be started: ${run.message}` };
    case 'timeout':
      return { status: 'timeout', message: `timed out after ${timeoutMs / 1000} s (its process group was killed)` };
    case 'exited': {
      const parsed = parseHookStdout(run.stdout);
      const output = parsed.kind === 'json' ? parsed.output : undefined;
      if (run.exitCode === 2) {
        const reason =
          output?.hookSpecificOutput?.permissionDecisionReason ?? output?.reason ?? capHookText(run.stderr.trim());
        return {
          status: 'blocking',
          message: reason === '' ? `${config.command} exited with code 2 and gave no reason` : reason,
          ...(output === undefined ? {} : { output }),
        };
      }
      // On any other exit code, schema-valid JSON alone decides, as in the reference.
      if (output !== undefined) return { status: 'success', output };
      if (run.exitCode !== 0) return { status: 'error', message: describeExit(run) };
      if (parsed.kind === 'invalid') return { status: 'error', message: parsed.message };
      return parsed.kind === 'text' ? { status: 'success', text: parsed.text } : { status: 'success' };
    }
  }
}

function compileCommandHook(
  config: CommandHookConfig,
  source: HookRun['source'],
  matcher: CompiledMatcher,
  options: { env: Readonly<Record<string, string>>; shell: string | undefined },
  root: string | undefined,
): CompiledHook {
  const timeoutMs = hookTimeoutMs(config.timeout, DEFAULT_HOOK_TIMEOUT_SECONDS);
  const failClosed = config.failClosed ?? false;
  return {
    label: config.command,
    source,
    matcher,
    dedupeKey: config.command,
    ...(config.if === undefined ? {} : { condition: { rule: config.if, root } }),
    ...(config.async === true ? { async: true } : {}),
    async run(input, signal) {
      const run = await runCommandHook({
        command: config.command,
        stdin: JSON.stringify(input),
        env: options.env,
        cwd: input.cwd,
        timeoutMs,
        signal,
        ...(options.shell === undefined ? {} : { shell: options.shell }),
      });
      return { hook: config.command, source, failClosed, ...interpretCommandRun(run, config, timeoutMs) };
    },
  };
}

function compileFunctionHook(hook: FunctionHook, matcher: CompiledMatcher): CompiledHook {
  const failClosed = hook.failClosed ?? true;
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_SECONDS * 1000;
  const source = 'function' as const;
  // Most callbacks answer nothing: one frozen run serves them all without allocating.
  const silent: HookRun = Object.freeze({ hook: hook.name, source, failClosed, status: 'success' });
  const answered = (value: unknown): HookRun =>
    value === undefined || value === null
      ? silent
      : typeof value === 'object'
        ? { hook: hook.name, source, failClosed, status: 'success', output: value as HookOutput }
        : {
            hook: hook.name,
            source,
            failClosed,
            status: 'error',
            message: `returned ${typeof value}, not a hook output object`,
          };
  const failed = (error: unknown): HookRun => ({
    hook: hook.name,
    source,
    failClosed,
    status: 'error',
    message: `threw: ${error instanceof Error ? error.message : String(error)}`,
  });
  const base = { hook: hook.name, source, failClosed };
  return {
    label: hook.name,
    source: 'function',
    matcher,
    dedupeKey: undefined,
    run(input, signal) {
      let result: unknown;
      try {
        result = hook.callback(input, signal);
      } catch (error) {
        return failed(error);
      }
      if (result === undefined || !isPromiseLike(result)) return answered(result);
      return new Promise<HookRun>((resolvePromise) => {
        const settle = (run: HookRun): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolvePromise(run);
        };
        const onAbort = (): void => settle({ ...base, status: 'cancelled', message: 'cancelled before it finished' });
        const timer = setTimeout(
          () => settle({ ...base, status: 'timeout', message: `timed out after ${timeoutMs} ms` }),
          timeoutMs,
        );
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        Promise.resolve(result).then(
          (value) => settle(answered(value)),
          (error: unknown) => settle(failed(error)),
        );
      });
    },
  };
}

/** The environment command hooks run with: the host's without model-provider credentials, and the project folder. */
export function hookEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  projectDir: string,
): Record<string, string> {
  return { ...scrubModelCredentials(env), TOOLPLANE_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir };
}

/**
 * Compiles settings hooks and function hooks once per session: matchers are built here, so an
 * event with no matching hook costs one lookup and one test per configured matcher.
 */
export function createHookRegistry(options: HookRegistryOptions): HookRegistry {
  const report = options.onDiagnostic ?? (() => undefined);
  const observe = options.onHookRun;
  const env = hookEnvironment(options.env, options.projectDir);
  const commandOptions = { env, shell: options.shell };
  const byEvent = new Map<HookEventName, CompiledHook[]>();
  const add = (event: HookEventName, hook: CompiledHook): void => {
    if (hook.matcher.error !== undefined) {
      report({ event, hook: hook.label, source: hook.source, kind: 'error', message: hook.matcher.error });
    }
    const list = byEvent.get(event) ?? [];
    list.push(hook);
    byEvent.set(event, list);
  };
  for (const [event, groups] of options.settings ?? new Map()) {
    for (const group of groups) {
      const matcher = compileMatcher(group.matcher);
      for (const config of group.hooks) {
        const problem =
          config.type === 'command'
            ? hookScriptProblem(config.command, { env, cwd: options.projectDir })
            : runnerHookProblem(config, options.runners);
        if (problem !== undefined)
          report({
            event,
            hook: hookLabel(config),
            source: group.source,
            kind: 'error',
            message: `${problem}; it cannot run, so it protects nothing${config.failClosed ? ' (failClosed: the calls it is meant for are blocked)' : ''}`,
          });
        add(
          event,
          config.type === 'http'
            ? compileHttpHook(config, group.source, matcher, env, group.root)
            : config.type === 'command'
              ? compileCommandHook(config, group.source, matcher, commandOptions, group.root)
              : compileRunnerHook(config, group.source, matcher, options.runners, group.root),
        );
      }
    }
  }
  for (const hook of options.functionHooks ?? [])
    add(hook.event, compileFunctionHook(hook, compileMatcher(hook.matcher)));

  const afterRuns = (event: HookEventName, runs: readonly HookRun[]): readonly HookRun[] => {
    for (const run of runs) {
      if (run.status === 'error' || run.status === 'timeout') {
        report({ event, hook: run.hook, source: run.source, kind: run.status, message: run.message ?? run.status });
      }
      if (run.output?.systemMessage !== undefined) {
        report({
          event,
          hook: run.hook,
          source: run.source,
          kind: 'system-message',
          message: run.output.systemMessage,
        });
      }
    }
    return runs;
  };

  return {
    matching(event, target) {
      const hooks = byEvent.get(event);
      if (hooks === undefined) return NONE;
      let matched: CompiledHook[] | undefined;
      let seen: Set<string> | undefined;
      for (const hook of hooks) {
        if (target !== undefined && !hook.matcher.test(target)) continue;
        // A hook with an `if` is deduplicated once the call has been judged (forCall).
        if (hook.dedupeKey !== undefined && hook.condition === undefined) {
          seen ??= new Set();
          if (seen.has(hook.dedupeKey)) continue;
          seen.add(hook.dedupeKey);
        }
        (matched ??= []).push(hook);
      }
      return matched ?? NONE;
    },
    forCall(hooks, call) {
      if (hooks.every((hook) => hook.condition === undefined)) return hooks;
      const judge = options.conditionMatches;
      const verdicts = hooks.map((hook) =>
        hook.condition === undefined || judge === undefined ? true : judgeCondition(judge, hook.condition, call),
      );
      const keep = (settled: readonly boolean[]) => onceEach(hooks.filter((_, index) => settled[index]));
      return verdicts.some((verdict) => verdict instanceof Promise)
        ? Promise.all(verdicts).then(keep)
        : keep(verdicts as boolean[]);
    },
    run(event, all, input, signal) {
      const hooks = startDetached(event, all, input, { ...options, signal, observe, afterRuns });
      const runs: (HookRun | Promise<HookRun>)[] = [];
      let pending = false;
      for (const hook of hooks) {
        const run = observed(observe, event, hook, input, signal);
        // Every asynchronous run is a native Promise made here (async function or new Promise).
        if (run instanceof Promise) pending = true;
        runs.push(run);
      }
      if (!pending) return afterRuns(event, runs as HookRun[]);
      return Promise.all(runs).then((settled) => afterRuns(event, settled));
    },
    report,
  };
}
