import type { Approver } from '../contract/gates.js';
import type { HookSettings } from '../contract/hook-config.js';
import type { PermissionModeStore } from '../contract/permission-mode-store.js';
import type { ModelProvider } from '../contract/provider.js';
import type { ServiceRegistry } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { ConfigChangeSource } from '../hooks/event-values.js';
import type { FunctionHook } from '../hooks/hook-types.js';
import type { Message } from '../messages/types.js';
import type { Session, SessionStore } from '../loop/session-store.js';
import type { SubagentType } from '../loop/subagent-runner.js';
import type { LoopEvent, QueryResult } from '../loop/types.js';
import type { RunCosts, SpendingMeter } from '../loop/run-accounting.js';
import type { HookRunEvent } from '../hooks/hook-registry.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import type { ToolPool } from '../pool/tool-pool.js';
import type { TodoItem, TodoStore } from '../tools/todo-write/todo-store.js';
import type { StructuredOutputOptions } from './structured-output.js';
import type { HostToolCall } from './run-host-tool-call.js';
import type { ToolCallRecord } from '../execution/types.js';
import type { SourcedDiagnostic } from '../permissions/rule-set.js';
import type { SessionPermissions } from './start-checks.js';
import type { SessionObserver } from './session-observer.js';

/** How an agent session is set up. Everything it reads from outside comes in here. */
export type AgentSessionOptions = {
  readonly provider: ModelProvider;
  /** Default: the provider's default model. */
  readonly model?: string;
  readonly system: string;
  /** The instruction files (`AGENTS.md`, `CLAUDE.md`) `system` holds: InstructionsLoaded hooks hear of each at start. */
  readonly instructionFiles?: readonly string[];
  /** The working folder: given to tools and hooks. */
  readonly cwd: string;
  /** Where transcripts are kept (see `createSessionStore`). */
  readonly sessions: SessionStore;
  /** Continue this earlier session instead of starting a new one. */
  readonly resume?: string;
  /** With `resume`: its history goes on in a new session, the earlier one left as it was. */
  readonly fork?: boolean;
  /** Watches the session's turns, events and calls from outside (telemetry). */
  readonly observer?: SessionObserver;
  /** Sees each hook of the session as it starts and ends (`--include-hook-events`). */
  readonly onHookRun?: (event: HookRunEvent) => void;
  /** The id of the new (or forked) session: a UUID no session of the project has. Default: a random one. */
  readonly sessionId?: string;
  /** The tools of the session besides MCP tools (built-ins and the host's own). */
  readonly tools: readonly AnyTool[];
  /** MCP servers whose tools join the pool as they connect. */
  readonly mcp?: McpManager;
  /**
   * The permission gate. With the permission engine's extras: `isBlanketDenied` keeps tools out of
   * the pool, `validateRules` problems are reported at start, `pathDenial` filters Grep and Glob.
   */
  readonly permissions: SessionPermissions;
  /** The session's one mode store; the permission engine should be built on the same store. */
  readonly modes: PermissionModeStore;
  /** Hooks from settings (Claude Code's schema). Default none. */
  readonly hooks?: HookSettings;
  /** In-process hooks (a library user's own), run like settings hooks. */
  readonly functionHooks?: readonly FunctionHook[];
  /** The host's environment: command hooks inherit it (model-provider credentials removed). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The person's home folder: `~` in paths that hooks see. */
  readonly homeDir: string;
  /** The host's services (sandbox, web fetch, …); the session adds its own to this registry. */
  readonly services?: ServiceRegistry;
  /** Subagent types the Agent tool offers; default the general-purpose one. */
  readonly agentTypes?: readonly SubagentType[];
  /**
   * Every run's result is JSON matching this schema: the session adds the StructuredOutput tool,
   * reminds a model that stops without it, and ends the run with `error_max_structured_output_retries`
   * after 5 failed calls. For non-interactive runs (`-p --json-schema`); the terminal UI never has it.
   */
  readonly structuredOutput?: StructuredOutputOptions;
  readonly maxTurns?: number;
  /**
   * Prices each model response (`costOf`, USD; 0 for a model without a price) and caps what the
   * session may spend (`maxUsd`): the run that reaches it ends with `error_max_budget_usd`.
   */
  readonly costs?: Omit<RunCosts, 'meter'>;
  /** Default 200,000. */
  readonly contextWindowTokens?: number;
  /**
   * Called after every batch of tool calls and at close (the settings guard): its notices are
   * shown, and ConfigChange hooks hear of each settings file it found changed.
   */
  readonly afterTools?: (signal?: AbortSignal) => Promise<AfterToolsReport>;
  /** Where notices go between turns and at close. Default: dropped. */
  readonly warn?: (line: string) => void;
  /** Host clean-up at close, after background tasks stopped and before the transcript is flushed. */
  readonly onClose?: () => Promise<void>;
  /** Cancels hooks of the session's own events (SubagentStop) when the host shuts down. */
  readonly signal?: AbortSignal;
};

/** A settings file of the session's policy that changed while it ran, with its scope. */
export type ChangedSettingsFile = { readonly file: string; readonly source: ConfigChangeSource };

/** What the host found after a batch of tool calls: notices for the person, and the settings files that changed. */
export type AfterToolsReport = {
  readonly notices: readonly string[];
  readonly changedSettings: readonly ChangedSettingsFile[];
};

/**
 * An agent session: one conversation at a time, driven by prompts. Everything a user has open
 * lives here, for the CLI, the terminal UI and a library user alike.
 */
export type AgentSession = {
  /** The current conversation's id (a new one after `clear`, the earlier one after `resume`). */
  id(): string;
  /** The current conversation's transcript. */
  transcript(): Session;
  messages(): readonly Message[];
  pool(): ToolPool;
  readonly modes: PermissionModeStore;
  /** The permission rules' problems found at start (each was also given to `warn`). */
  readonly ruleProblems: readonly SourcedDiagnostic[];
  readonly hooks: HookPlane;
  readonly services: ServiceRegistry;
  readonly todoStore: TodoStore;
  todos(): readonly TodoItem[];
  /** Runs one prompt through UserPromptSubmit hooks and the loop. */
  submit(prompt: string, signal: AbortSignal): AsyncGenerator<LoopEvent, QueryResult>;
  /**
   * Runs one call the host makes between turns (a custom slash command's shell line) through the
   * same plane as the model's calls: rules, hooks, the approver, the sandbox, the ledger. Its
   * result stays out of the conversation. See {@link runHostToolCall}.
   */
  runToolCall(call: HostToolCall, signal: AbortSignal): AsyncGenerator<LoopEvent, ToolCallRecord>;
  /** The model the next request goes to. */
  model(): string;
  /**
   * What the session's model requests have cost so far, its subagents' included, by the `costs`
   * prices (0 without them): USD in all and per model.
   */
  spending(): SpendingMeter;
  /** Sends later requests to `model`; undefined goes back to the session's first model. */
  setModel(model: string | undefined): void;
  /** Who answers `ask` decisions; none means they are denied. */
  setApprover(approver: Approver | undefined): void;
  /** Compacts the history now (PreCompact hooks first); returns what it did, for people. */
  compact(signal: AbortSignal): Promise<string>;
  /** Replaces the conversation with an earlier one of the same store. */
  resume(sessionId: string): Promise<void>;
  /** Starts a new, empty conversation. */
  clear(): Promise<void>;
  /** The input tokens of the last request (context in use). */
  lastInputTokens(): number;
  /** SessionEnd hooks, background tasks stopped, host clean-up, transcript flushed. */
  close(): Promise<void>;
};
