import type { HookEventName } from '../contract/hook-config.js';
import type {
  ConfigChangeSource,
  InstructionsLoadReason,
  InstructionsMemoryType,
  NotificationType,
} from './event-values.js';
import { buildHookInput, type HookSession } from './hook-input.js';
import type { HookRegistry } from './hook-registry.js';
import type { HookRun } from './hook-types.js';
import { capHookText } from './parse-hook-output.js';
import type { StopFailureCause } from './stop-failure-error.js';

/** What UserPromptSubmit hooks decided about a prompt. */
export type UserPromptSubmitOutcome = {
  /** The prompt is rejected (and erased) with this reason, shown to the person. */
  readonly blocked?: string;
  /** Text added to the model's context with the prompt. */
  readonly additionalContext: readonly string[];
  /** `continue: false`: end the session's turn with this reason. */
  readonly stopReason?: string;
};

/** What Stop or SubagentStop hooks decided when the agent was about to stop. */
export type StopOutcome = {
  /** Keep working: this reason is given to the model as the next instruction. */
  readonly continueWith?: string;
  /** `continue: false`: stop now, whatever another hook asked, with this reason. */
  readonly stopReason?: string;
};

/** What PreCompact hooks decided. */
export type PreCompactOutcome = {
  /** Compaction does not happen, for this reason. */
  readonly blocked?: string;
};

/** Options common to every session event. */
type EventOptions = { readonly session: HookSession; readonly signal: AbortSignal };

/** Runs the hooks of the session events, for the agent loop to call. Every method resolves. */
export type LifecycleHooks = {
  userPromptSubmit(options: EventOptions & { readonly prompt: string }): Promise<UserPromptSubmitOutcome>;
  stop(
    options: EventOptions & { readonly stopHookActive: boolean; readonly lastAssistantMessage?: string },
  ): Promise<StopOutcome>;
  subagentStop(
    options: EventOptions & { readonly stopHookActive: boolean; readonly lastAssistantMessage?: string },
  ): Promise<StopOutcome>;
  /** `source` is also what the hooks' matchers are tested against. */
  sessionStart(
    options: EventOptions & { readonly source: 'startup' | 'resume' | 'clear' | 'compact'; readonly model?: string },
  ): Promise<{ readonly additionalContext: readonly string[] }>;
  /** `reason` is also what the hooks' matchers are tested against. */
  sessionEnd(options: EventOptions & { readonly reason: string }): Promise<void>;
  /** A subagent starts; `agentType` is what the matchers are tested against. Its hooks' `additionalContext` joins the subagent's brief. */
  subagentStart(
    options: EventOptions & { readonly agentId: string; readonly agentType: string },
  ): Promise<{ readonly additionalContext: readonly string[] }>;
  /**
   * A call was refused without a person deciding (a rule, the mode, a safety check, no one to
   * ask), matched on the tool's name. It tells; it cannot undo the refusal.
   */
  permissionDenied(
    options: EventOptions & {
      readonly toolName: string;
      readonly toolInput: unknown;
      readonly toolUseId: string;
      readonly reason: string;
    },
  ): Promise<void>;
  /** A compaction happened (`trigger`, matched like PreCompact's), with the summary that replaced the history. */
  postCompact(
    options: EventOptions & { readonly trigger: 'manual' | 'auto'; readonly compactSummary: string },
  ): Promise<void>;
  /**
   * A turn ended on an API error, instead of Stop; `error` is what the matchers are tested against.
   * It tells: its output and exit code are ignored (it cannot retry the turn).
   */
  stopFailure(options: EventOptions & StopFailureCause & { readonly lastAssistantMessage?: string }): Promise<void>;
  /** toolplane needs the person; `notificationType` is what the matchers are tested against. It tells only. */
  notification(
    options: EventOptions & {
      readonly notificationType: NotificationType;
      readonly message: string;
      readonly title?: string;
    },
  ): Promise<void>;
  /** An instruction file entered the context; `loadReason` is what the matchers are tested against. It tells only. */
  instructionsLoaded(
    options: EventOptions & {
      readonly filePath: string;
      readonly memoryType: InstructionsMemoryType;
      readonly loadReason: InstructionsLoadReason;
    },
  ): Promise<void>;
  /**
   * A settings file changed during the session; `source` is what the matchers are tested against.
   * `blocked` (exit code 2 or `decision: "block"`) carries the hooks' reason; what it does is the
   * caller's to decide.
   */
  configChange(
    options: EventOptions & { readonly source: ConfigChangeSource; readonly filePath: string },
  ): Promise<{ readonly blocked?: string }>;
  /** `trigger` is also what the hooks' matchers are tested against. */
  preCompact(
    options: EventOptions & { readonly trigger: 'manual' | 'auto'; readonly customInstructions?: string },
  ): Promise<PreCompactOutcome>;
};

/** Options for {@link createLifecycleHooks}. */
export type LifecycleHooksOptions = {
  readonly registry: HookRegistry;
  readonly transcriptPath: (sessionId: string) => string;
};

function contextOf(run: HookRun): string[] {
  const texts: string[] = [];
  if (run.status === 'success' && run.text !== undefined) texts.push(run.text);
  const extra = run.output?.hookSpecificOutput?.additionalContext;
  if (extra !== undefined) texts.push(capHookText(extra));
  return texts;
}

function blockOf(run: HookRun): string | undefined {
  if (run.status === 'blocking') return run.message ?? `blocked by hook ${run.hook}`;
  if (run.output?.decision === 'block') return capHookText(run.output.reason ?? `blocked by hook ${run.hook}`);
  return undefined;
}

function stopOf(run: HookRun): string | undefined {
  if (run.output?.continue !== false) return undefined;
  return run.output.stopReason ?? `stopped by hook ${run.hook}`;
}

type Fire = (
  event: HookEventName,
  eventOptions: EventOptions,
  target: string | undefined,
  fields: Record<string, unknown>,
) => Promise<readonly HookRun[]>;

/** The events that tell hooks what happened and take no answer, except ConfigChange's block. */
function tellingHooks(
  fire: Fire,
  reportBlocks: (event: HookEventName, runs: readonly HookRun[]) => void,
): Pick<LifecycleHooks, 'stopFailure' | 'notification' | 'instructionsLoaded' | 'configChange'> {
  return {
    async stopFailure(eventOptions) {
      await fire('StopFailure', eventOptions, eventOptions.error, {
        error: eventOptions.error,
        error_details: eventOptions.errorDetails,
        ...(eventOptions.lastAssistantMessage === undefined
          ? {}
          : { last_assistant_message: eventOptions.lastAssistantMessage }),
      });
    },
    async notification(eventOptions) {
      const runs = await fire('Notification', eventOptions, eventOptions.notificationType, {
        message: eventOptions.message,
        ...(eventOptions.title === undefined ? {} : { title: eventOptions.title }),
        notification_type: eventOptions.notificationType,
      });
      reportBlocks('Notification', runs);
    },
    async instructionsLoaded(eventOptions) {
      await fire('InstructionsLoaded', eventOptions, eventOptions.loadReason, {
        file_path: eventOptions.filePath,
        memory_type: eventOptions.memoryType,
        load_reason: eventOptions.loadReason,
      });
    },
    async configChange(eventOptions) {
      const runs = await fire('ConfigChange', eventOptions, eventOptions.source, {
        source: eventOptions.source,
        file_path: eventOptions.filePath,
      });
      const blocks = runs.flatMap((run) => blockOf(run) ?? []);
      return blocks.length > 0 ? { blocked: blocks.join('\n') } : {};
    },
  };
}

/** Builds the session-event runners over a compiled registry. */
export function createLifecycleHooks(options: LifecycleHooksOptions): LifecycleHooks {
  const { registry } = options;
  const fire: Fire = async (event, eventOptions, target, fields) => {
    const hooks = registry.matching(event, target);
    if (hooks.length === 0) return [];
    const input = buildHookInput({
      event,
      session: eventOptions.session,
      transcriptPath: options.transcriptPath(eventOptions.session.sessionId),
      fields,
    });
    return registry.run(event, hooks, input, eventOptions.signal);
  };
  /** Exit code 2 of these events is shown to the person only. */
  const reportBlocks = (event: HookEventName, runs: readonly HookRun[]): void => {
    for (const run of runs) {
      if (run.status === 'blocking') {
        registry.report({ event, hook: run.hook, source: run.source, kind: 'stderr', message: run.message ?? '' });
      }
    }
  };
  const stopLike = async (
    event: 'Stop' | 'SubagentStop',
    eventOptions: EventOptions & { readonly stopHookActive: boolean; readonly lastAssistantMessage?: string },
  ): Promise<StopOutcome> => {
    const runs = await fire(event, eventOptions, undefined, {
      stop_hook_active: eventOptions.stopHookActive,
      ...(eventOptions.lastAssistantMessage === undefined
        ? {}
        : { last_assistant_message: eventOptions.lastAssistantMessage }),
    });
    const stopReason = runs.map(stopOf).find((reason) => reason !== undefined);
    if (stopReason !== undefined) return { stopReason };
    const reasons = runs.flatMap((run) => blockOf(run) ?? []);
    return reasons.length > 0 ? { continueWith: reasons.join('\n') } : {};
  };

  return {
    async userPromptSubmit(eventOptions) {
      const runs = await fire('UserPromptSubmit', eventOptions, undefined, { prompt: eventOptions.prompt });
      const stopReason = runs.map(stopOf).find((reason) => reason !== undefined);
      const blocks = runs.flatMap((run) => blockOf(run) ?? []);
      const blocked = blocks.length > 0 ? blocks.join('\n') : stopReason;
      return {
        ...(blocked === undefined ? {} : { blocked }),
        additionalContext: blocked === undefined ? runs.flatMap(contextOf) : [],
        ...(stopReason === undefined ? {} : { stopReason }),
      };
    },
    stop: (eventOptions) => stopLike('Stop', eventOptions),
    subagentStop: (eventOptions) => stopLike('SubagentStop', eventOptions),
    async sessionStart(eventOptions) {
      const runs = await fire('SessionStart', eventOptions, eventOptions.source, {
        source: eventOptions.source,
        ...(eventOptions.model === undefined ? {} : { model: eventOptions.model }),
      });
      reportBlocks('SessionStart', runs);
      return { additionalContext: runs.flatMap(contextOf) };
    },
    async sessionEnd(eventOptions) {
      const runs = await fire('SessionEnd', eventOptions, eventOptions.reason, { reason: eventOptions.reason });
      reportBlocks('SessionEnd', runs);
    },
    async subagentStart(eventOptions) {
      const runs = await fire('SubagentStart', eventOptions, eventOptions.agentType, {
        agent_id: eventOptions.agentId,
        agent_type: eventOptions.agentType,
      });
      reportBlocks('SubagentStart', runs);
      const context = runs.flatMap((run) => run.output?.hookSpecificOutput?.additionalContext ?? []);
      return { additionalContext: context.map((text) => capHookText(text)) };
    },
    async permissionDenied(eventOptions) {
      const runs = await fire('PermissionDenied', eventOptions, eventOptions.toolName, {
        tool_name: eventOptions.toolName,
        tool_input: eventOptions.toolInput,
        tool_use_id: eventOptions.toolUseId,
        reason: eventOptions.reason,
      });
      reportBlocks('PermissionDenied', runs);
    },
    async postCompact(eventOptions) {
      const runs = await fire('PostCompact', eventOptions, eventOptions.trigger, {
        trigger: eventOptions.trigger,
        compact_summary: eventOptions.compactSummary,
      });
      reportBlocks('PostCompact', runs);
    },
    ...tellingHooks(fire, reportBlocks),
    async preCompact(eventOptions) {
      const runs = await fire('PreCompact', eventOptions, eventOptions.trigger, {
        trigger: eventOptions.trigger,
        custom_instructions: eventOptions.customInstructions ?? '',
      });
      const blocks = runs.flatMap((run) => blockOf(run) ?? stopOf(run) ?? []);
      return blocks.length > 0 ? { blocked: blocks.join('\n') } : {};
    },
  };
}
