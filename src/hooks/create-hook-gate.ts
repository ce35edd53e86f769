import type {
  CallSubject,
  HookGate,
  PermissionRequestOutcome,
  PostToolUseFailureOutcome,
  PostToolUseOutcome,
  PreToolUseOutcome,
} from '../contract/gates.js';
import type { HookEventName } from '../contract/hook-config.js';
import type { PermissionDecision, RuleSuggestion } from '../contract/permission.js';
import { buildHookInput, toolInputForHooks } from './hook-input.js';
import { createHookRegistry, type HookRegistry, type HookRegistryOptions } from './hook-registry.js';
import type { HookRun } from './hook-types.js';
import { createLifecycleHooks, type LifecycleHooks } from './lifecycle-hooks.js';
import { capHookText, type HookOutput } from './parse-hook-output.js';

/** Options for {@link createHookGate}. */
export type CreateHookGateOptions = HookRegistryOptions & {
  /** The transcript file of a session, given to hooks as `transcript_path`. Default: empty. */
  readonly transcriptPath?: (sessionId: string) => string;
  /** For `~` in `file_path` before hooks see it. Default: `HOME` of `env`. */
  readonly homeDir?: string;
};

/** The hook gate for tool calls, plus the session events the agent loop fires. */
export type HookPlane = HookGate &
  LifecycleHooks & {
    /** Whether any hook is configured for `event` (whatever its matcher). */
    hasHooks(event: HookEventName): boolean;
  };

const EMPTY = Object.freeze({});
const SEVERITY = { allow: 1, ask: 2, deny: 3 } as const;

type Vote = { decision: 'allow' | 'ask' | 'deny'; reason?: string; run: HookRun; updatedInput?: unknown };

function then<T, U>(value: T | Promise<T>, next: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function failureText(run: HookRun): string {
  return `hook ${run.hook} ${run.status === 'timeout' ? 'timed out' : 'failed'} (${run.message ?? run.status})`;
}

/**
 * Most restrictive wins: deny > ask (and `defer`) > allow; `continue: false` denies and stops. A
 * hook that failed without blocking voids the others' allow: the call then goes through the
 * rules and the approver as if no hook had allowed it (a failed policy hook might have denied).
 */
function aggregatePreToolUse(runs: readonly HookRun[]): PreToolUseOutcome {
  if (runs.every((run) => run.status === 'success' && run.output === undefined)) return EMPTY;
  let votes: Vote[] = [];
  const context: string[] = [];
  let stopReason: string | undefined;
  let someFailed = false;
  let quietRewrite: unknown;
  for (const run of runs) {
    if (run.status === 'error' || run.status === 'timeout') someFailed = true;
    const output = run.output;
    const specific = output?.hookSpecificOutput;
    if (specific?.additionalContext !== undefined) context.push(capHookText(specific.additionalContext));
    if (run.status === 'blocking') {
      votes.push({ decision: 'deny', reason: run.message ?? 'blocked', run });
      continue;
    }
    if (run.status === 'cancelled' || (run.status !== 'success' && run.failClosed)) {
      votes.push({ decision: 'deny', reason: `${failureText(run)}; it is fail-closed, so the call was not run`, run });
      continue;
    }
    if (output === undefined) continue;
    if (output.continue === false) {
      stopReason ??= output.stopReason ?? `stopped by hook ${run.hook}`;
      votes.push({ decision: 'deny', reason: output.stopReason ?? `hook ${run.hook} stopped the turn`, run });
      continue;
    }
    const legacy = output.decision === 'approve' ? 'allow' : output.decision === 'block' ? 'deny' : undefined;
    const said = specific?.permissionDecision ?? legacy;
    if (said === undefined) continue;
    const decision = said === 'defer' ? 'ask' : said;
    if (decision === 'allow' && run.advisory === true) {
      // A model's allow grants nothing: the call goes through the rules and the approver, rewritten if it asked.
      quietRewrite ??= specific?.updatedInput;
      continue;
    }
    const reason = specific?.permissionDecisionReason ?? output.reason;
    votes.push({
      decision,
      run,
      ...(reason === undefined ? {} : { reason: capHookText(reason) }),
      ...(specific?.updatedInput === undefined || decision === 'deny' ? {} : { updatedInput: specific.updatedInput }),
    });
  }
  if (someFailed) votes = votes.filter((vote) => vote.decision !== 'allow');
  if (votes.length === 0 && context.length === 0 && quietRewrite === undefined) return EMPTY;
  let winner: Vote | undefined;
  for (const vote of votes)
    if (winner === undefined || SEVERITY[vote.decision] > SEVERITY[winner.decision]) winner = vote;
  const outcome: { -readonly [K in keyof PreToolUseOutcome]: PreToolUseOutcome[K] } = {};
  if (winner !== undefined) {
    const decision = winner.decision;
    const agreeing = votes.filter((vote) => vote.decision === decision);
    outcome.decision = decision;
    outcome.hook = winner.run.hook;
    const reasons = agreeing.flatMap((vote) => (vote.reason === undefined ? [] : [vote.reason]));
    outcome.reason = reasons.length > 0 ? reasons.join('\n') : `${decision} by PreToolUse hook ${winner.run.hook}`;
    const rewrite = agreeing.find((vote) => vote.updatedInput !== undefined);
    if (rewrite !== undefined) outcome.updatedInput = rewrite.updatedInput;
  }
  // Never under another hook's allow, which was given for the input before the rewrite.
  if (quietRewrite !== undefined && outcome.updatedInput === undefined && (outcome.decision ?? 'ask') === 'ask')
    outcome.updatedInput = quietRewrite;
  if (context.length > 0) outcome.additionalContext = context;
  if (stopReason !== undefined) outcome.stopReason = stopReason;
  return outcome;
}

function aggregatePostToolUse(runs: readonly HookRun[], external: boolean, registry: HookRegistry): PostToolUseOutcome {
  const context: string[] = [];
  const blocks: string[] = [];
  let updatedOutput: { value: unknown } | undefined;
  let stopReason: string | undefined;
  for (const run of runs) {
    if (run.status === 'blocking') blocks.push(run.message ?? `blocked by hook ${run.hook}`);
    const output = run.output;
    if (output === undefined) continue;
    const specific = output.hookSpecificOutput;
    if (specific?.additionalContext !== undefined) context.push(capHookText(specific.additionalContext));
    if (output.decision === 'block' && run.status !== 'blocking')
      blocks.push(capHookText(output.reason ?? `blocked by hook ${run.hook}`));
    if (output.continue === false) stopReason ??= output.stopReason ?? `stopped by hook ${run.hook}`;
    const replacement = specific?.updatedMCPToolOutput ?? specific?.updatedToolOutput;
    if (replacement === undefined) continue;
    if (external) updatedOutput ??= { value: replacement };
    else {
      registry.report({
        event: 'PostToolUse',
        hook: run.hook,
        source: run.source,
        kind: 'ignored-output',
        message: 'a replacement output applies to MCP and other external tools only; ignored for a built-in tool',
      });
    }
  }
  if (context.length === 0 && blocks.length === 0 && updatedOutput === undefined && stopReason === undefined)
    return EMPTY;
  return {
    ...(context.length > 0 ? { additionalContext: context } : {}),
    ...(blocks.length > 0 ? { blockReason: blocks.join('\n') } : {}),
    ...(updatedOutput === undefined ? {} : { updatedOutput: updatedOutput.value }),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}

function aggregatePermissionRequest(runs: readonly HookRun[], registry: HookRegistry): PermissionRequestOutcome {
  let allow: PermissionRequestOutcome | undefined;
  for (const run of runs) {
    if (run.status === 'cancelled' || (run.status !== 'success' && run.status !== 'blocking' && run.failClosed)) {
      return {
        decision: 'deny',
        hook: run.hook,
        message: `${failureText(run)}; it is fail-closed, so the request was denied`,
      };
    }
    if (run.status === 'blocking') {
      registry.report({
        event: 'PermissionRequest',
        hook: run.hook,
        source: run.source,
        kind: 'stderr',
        message: `exit code 2 is not a decision for PermissionRequest: ${run.message ?? ''}`,
      });
    }
    const output = run.output;
    if (output?.continue === false) {
      return { decision: 'deny', hook: run.hook, message: output.stopReason ?? `hook ${run.hook} stopped the turn` };
    }
    const decision = output?.hookSpecificOutput?.decision;
    if (decision === undefined) continue;
    if (decision.behavior === 'deny') {
      return {
        decision: 'deny',
        hook: run.hook,
        message: capHookText(decision.message ?? `denied by PermissionRequest hook ${run.hook}`),
        ...(decision.interrupt === true ? { interrupt: true } : {}),
      };
    }
    // A model's allow grants nothing: the request is left to the approver.
    if (run.advisory === true) continue;
    const remember = rulesToSave(decision.updatedPermissions);
    allow ??= {
      decision: 'allow',
      hook: run.hook,
      ...(decision.updatedInput === undefined ? {} : { updatedInput: decision.updatedInput }),
      ...(decision.message === undefined ? {} : { message: decision.message }),
      ...(remember.length > 0 ? { remember } : {}),
    };
  }
  return allow ?? EMPTY;
}

/** The `addRules` entries of a PermissionRequest hook's `updatedPermissions`, as rules to save. */
function rulesToSave(
  updates:
    | NonNullable<NonNullable<NonNullable<HookOutput['hookSpecificOutput']>['decision']>['updatedPermissions']>
    | undefined,
): RuleSuggestion[] {
  const rules: RuleSuggestion[] = [];
  for (const update of updates ?? []) {
    if (update.type !== 'addRules') continue;
    for (const rule of update.rules ?? []) {
      const text =
        typeof rule === 'string'
          ? rule
          : rule.ruleContent === undefined
            ? rule.toolName
            : `${rule.toolName}(${rule.ruleContent})`;
      rules.push({ rule: text, behavior: update.behavior ?? 'allow', destination: update.destination ?? 'session' });
    }
  }
  return rules;
}

function suggestionsOf(decision: PermissionDecision): unknown[] {
  if (decision.behavior !== 'ask') return [];
  return (decision.suggestions ?? []).map((suggestion) => ({
    type: 'addRules',
    rules: [suggestion.rule],
    behavior: suggestion.behavior,
    destination: suggestion.destination,
  }));
}

/**
 * Creates the hook gate: runs PreToolUse, PostToolUse, PostToolUseFailure and PermissionRequest
 * hooks (command hooks from settings and function hooks) with the reference protocol, hooks of one
 * event in parallel, and aggregates them. Matchers are compiled once; when no hook matches, a
 * method returns a shared empty outcome synchronously. Every method resolves: a hook that
 * crashes, hangs or prints garbage is reported through `onDiagnostic` and never allows anything.
 */
export function createHookGate(options: CreateHookGateOptions): HookPlane {
  const registry = createHookRegistry(options);
  const transcriptPath = options.transcriptPath ?? (() => '');
  const homeDir = options.homeDir ?? options.env['HOME'];
  const toolFields = (subject: CallSubject, extra: Record<string, unknown>): Record<string, unknown> => {
    extra['tool_name'] = subject.tool.name;
    extra['tool_input'] = toolInputForHooks(subject.input, { cwd: subject.context.cwd, homeDir });
    return extra;
  };
  const fire = <T>(
    event: HookEventName,
    subject: CallSubject,
    fields: () => Record<string, unknown>,
    signal: AbortSignal,
    aggregate: (runs: readonly HookRun[]) => T,
  ): T | Promise<T> => {
    const matched = registry.matching(event, subject.tool.name);
    if (matched.length === 0) return EMPTY as T;
    // A hook's `if` is judged before it starts: one whose rule the call does not match costs no process.
    return then(registry.forCall(matched, subject), (hooks) => {
      if (hooks.length === 0) return EMPTY as T;
      const input = buildHookInput({
        event,
        session: subject.context,
        transcriptPath: transcriptPath(subject.context.sessionId),
        fields: fields(),
      });
      return then(registry.run(event, hooks, input, signal), aggregate);
    }) as T | Promise<T>;
  };

  return {
    preToolUse(subject, signal) {
      return fire(
        'PreToolUse',
        subject,
        () => toolFields(subject, { tool_use_id: subject.toolUseId }),
        signal,
        aggregatePreToolUse,
      );
    },
    postToolUse(subject, signal) {
      const external = subject.tool.origin === 'external' || subject.tool.external !== undefined;
      return fire(
        'PostToolUse',
        subject,
        () => toolFields(subject, { tool_use_id: subject.toolUseId, tool_response: subject.output }),
        signal,
        (runs) => aggregatePostToolUse(runs, external, registry),
      );
    },
    postToolUseFailure(subject, signal) {
      return fire(
        'PostToolUseFailure',
        subject,
        () =>
          toolFields(subject, {
            tool_use_id: subject.toolUseId,
            error: subject.error,
            is_interrupt: subject.context.signal.aborted,
          }),
        signal,
        (runs): PostToolUseFailureOutcome => {
          const context = runs.flatMap((run) => {
            const texts: string[] = [];
            if (run.status === 'blocking' && run.message !== undefined) texts.push(run.message);
            const extra = run.output?.hookSpecificOutput?.additionalContext;
            if (extra !== undefined) texts.push(capHookText(extra));
            return texts;
          });
          return context.length > 0 ? { additionalContext: context } : EMPTY;
        },
      );
    },
    permissionRequest(subject, signal) {
      return fire(
        'PermissionRequest',
        subject,
        () => toolFields(subject, { permission_suggestions: suggestionsOf(subject.decision) }),
        signal,
        (runs) => aggregatePermissionRequest(runs, registry),
      );
    },
    ...createLifecycleHooks({ registry, transcriptPath }),
    hasHooks(event) {
      return registry.matching(event, undefined).length > 0;
    },
  };
}
