import type { RunStatus } from '../contract/run-status.js';
import type { HookGate } from '../contract/gates.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent, StopReason, Usage } from '../contract/provider.js';
import type { AssistantMessage, Message, TextBlock, ToolUseBlock, UserMessage } from '../messages/types.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { ToolExecutorOptions, ToolRunEvent } from '../execution/types.js';
import type { DeferralTracker } from './deferral.js';
import type { RunCosts, RunUsage } from './run-accounting.js';

export type { DeferralStrategy } from './deferral.js';

/** Events the lifecycle hooks (Stop, UserPromptSubmit, …) can answer, as the loop uses them. */
export type LoopHooks = {
  /** A Stop hook may block the stop and give the model a reason to go on. */
  stop?(
    input: { readonly lastAssistantText: string; readonly stopHookActive: boolean },
    signal: AbortSignal,
  ): Promise<{ readonly continueWith?: string }>;
  /** Called before compaction. */
  preCompact?(input: { readonly trigger: 'auto' | 'manual' }, signal: AbortSignal): Promise<void>;
};

/** Where the loop writes what happens; the session transcript implements it. */
export type LoopRecorder = {
  message(message: Message): void;
  /**
   * Write-ahead: each `tool_use` block as soon as it is complete, before its call starts (calls
   * start while the message still streams). The call waits until this resolves; a rejection (the
   * transcript cannot be written) ends the run with an error, and that call never starts.
   */
  toolUse?(block: ToolUseBlock): Promise<void> | void;
  event?(event: { readonly type: string; readonly [key: string]: unknown }): void;
};

/** Options of one run of the agent loop. */
export type QueryOptions = {
  readonly provider: ModelProvider;
  /** Default: the provider's default model. */
  readonly model?: string;
  readonly system: string | readonly TextBlock[];
  /** The history so far, ending with the new user message. Not mutated. */
  readonly messages: readonly Message[];
  /** Called before every request: the pool may change between turns (MCP list_changed). */
  readonly getPool: () => ToolPool;
  /** The plane's options except those the loop fills per turn. */
  readonly plane: Omit<ToolExecutorOptions, 'pool' | 'signal' | 'onEvent' | 'isSchemaLoaded'>;
  /** Deferred tools: computed once per request, announced in the history. */
  readonly deferral?: DeferralTracker;
  /** Model requests at most. Default 50. */
  readonly maxTurns?: number;
  /** Output tokens per response. Default 8192. */
  readonly maxTokens?: number;
  /** Prices the responses (the result's cost) and caps the spending. Default: everything costs 0. */
  readonly costs?: RunCosts;
  readonly signal?: AbortSignal;
  readonly recorder?: LoopRecorder;
  readonly hooks?: LoopHooks & { readonly gate?: HookGate };
  /** Text that arrived while a batch of calls ran (what `async` hooks said): taken once, sent with the batch's results. */
  readonly lateContext?: () => readonly string[];
  /**
   * The run's result must be a successful call of this tool (StructuredOutput): the model is
   * reminded at most `maxReminders` times when it stops without one, and the run ends with
   * `error_max_structured_output_retries` after `maxFailedCalls` failed calls (default 5).
   */
  readonly requiredTool?: {
    readonly name: string;
    readonly maxReminders: number;
    readonly maxFailedCalls?: number;
  };
  /** Compaction when the context nears its limit. */
  readonly compaction?: {
    readonly contextWindowTokens: number;
    /** Compact when the last request's input tokens exceed this share of the window. Default 0.8. */
    readonly threshold?: number;
    /** Messages kept verbatim at least. Default 6. */
    readonly keepRecent?: number;
    /** Summarizes old turns; the loop keeps the recent ones. */
    readonly summarize: (messages: readonly Message[], signal: AbortSignal) => Promise<string>;
  };
};

/** Events of a run, in order. Tool-run events are passed through from the plane. */
export type LoopEvent =
  | { readonly type: 'request-start'; readonly turn: number; readonly request: ModelRequest }
  | { readonly type: 'text-delta'; readonly text: string }
  /** A tool_use block begins streaming, and its input's JSON streams in (for live views; the call starts once complete). */
  | Extract<ModelStreamEvent, { readonly type: 'tool-use-start' | 'tool-input-delta' }>
  | {
      readonly type: 'assistant-message';
      readonly message: AssistantMessage;
      readonly stopReason: StopReason;
      readonly usage: Usage;
    }
  | ToolRunEvent
  | { readonly type: 'tool-results'; readonly message: UserMessage }
  | { readonly type: 'compact'; readonly removedMessages: number; readonly summary: string }
  | { readonly type: 'notice'; readonly message: string }
  /** The model request failed before any tool call started and is tried again (see ModelStreamEvent). */
  | Extract<ModelStreamEvent, { readonly type: 'retry' }>
  | { readonly type: 'error'; readonly error: Error };

export type LoopStatus = RunStatus;

/** A tool call that was refused (a rule, a person, an approver or a hook), as headless output lists them. */
export type PermissionDenial = {
  readonly tool_name: string;
  readonly tool_use_id: string;
  readonly tool_input: unknown;
};

/**
 * What a run produced. Its usage (`RunUsage`): tokens in all and per model, the cost, the time
 * spent waiting for the API and the last response's stop reason.
 */
export type QueryResult = RunUsage & {
  readonly status: LoopStatus;
  /** The final assistant text. */
  readonly text: string;
  /** The whole history after the run. */
  readonly messages: readonly Message[];
  readonly turns: number;
  readonly permissionDenials: readonly PermissionDenial[];
  /** The validated input of the required tool's successful call. */
  readonly requiredToolInput?: unknown;
  readonly error?: Error;
};
