import type { Approver } from '../../contract/gates.js';
import type { Message } from '../../messages/types.js';
import type { PermissionMode } from '../../contract/permission.js';
import type { LoopEvent, QueryResult } from '../../session/index.js';
import type { SessionSummary } from '../../session/index.js';
import type { TodoItem } from '../../tools/todo-write/todo-store.js';
import type { CustomCommand, CustomCommandList } from '../slash-commands/load-custom-commands.js';
import type { InteractionChannel } from '../../tools/ask-user-question/interaction-channel.js';
import type { ModelErrorContext } from '../describe-model-error.js';

/** What the status line shows. */
export type HostStatus = {
  readonly provider: string;
  readonly model: string;
  readonly mode: PermissionMode;
  readonly sessionId: string;
  readonly cwd: string;
  /** Input tokens of the last request, and the model's context window. */
  readonly contextTokens: number;
  readonly contextWindow: number;
  /** Tokens the session's model requests used so far (input, output and cache), subagents' included. */
  readonly tokensUsed?: number;
  /** What they cost in USD; absent when a model used (or the current one) has no price. */
  readonly costUsd?: number;
};

/** What the welcome panel shows beside the status: the version and whether the folder is trusted. */
export type HostWelcome = {
  readonly version: string;
  /** Untrusted: the project's settings apply only their deny and ask rules. */
  readonly projectTrust: 'trusted' | 'untrusted' | 'unknown';
};

/**
 * What the terminal UI drives: the composition root (cli/) implements it over the agent loop, the
 * settings, the permission engine and MCP. The UI owns only what people see and answer; it never
 * builds requests or decides permissions. What the model sees and what the screen shows are
 * separate channels: the UI renders events, never tool results' model text as-is.
 */
export type InteractiveHost = {
  status(): HostStatus;
  /** Runs one user prompt. Aborting `signal` interrupts the turn; every pending call still gets its result. */
  submit(prompt: string, signal: AbortSignal): AsyncGenerator<LoopEvent, QueryResult>;
  /** The UI's approval dialog; set before the first submit. */
  setApprover(approver: Approver): void;
  /** The UI's channel for AskUserQuestion and plan approval (ExitPlanMode). */
  setInteractionChannel?(channel: InteractionChannel): void;
  /** The main agent's todo list, and changes to it. */
  todos(): readonly TodoItem[];
  onTodosChange(listener: (todos: readonly TodoItem[]) => void): () => void;
  /** `/permissions`: the rules in force with their sources, and the mode. */
  describePermissions(): string;
  /** `/mcp`: servers, states, tool counts, and why a failed one failed. */
  describeMcp(): string;
  /** `/hooks`: every hook in force, with its matcher, `if`, source file, and a script that cannot run. */
  describeHooks(): string;
  /**
   * Shift+Tab: switches to the next permission mode (default → acceptEdits → plan → default, and
   * bypassPermissions only when the session started in it and settings allow it); returns it.
   */
  cyclePermissionMode?(): PermissionMode;
  /** `/trust`: records that the person trusts the working folder (later runs); returns what to tell them. */
  trustFolder?(signal: AbortSignal): Promise<string>;
  /** `/compact`: summarizes older turns now; returns a one-line report. */
  compact(signal: AbortSignal): Promise<string>;
  /** `/resume`: sessions of this project, newest first, and switching to one. */
  listSessions(): Promise<readonly SessionSummary[]>;
  resume(sessionId: string): Promise<void>;
  /** The current session's history, to redraw it after `/resume`. */
  history?(): readonly Message[];
  /** A tool's one-line summary of a call's input, for redrawn history; undefined for a tool it does not know. */
  describeInput?(toolName: string, input: unknown): string | undefined;
  /** `/clear`: starts a new session. */
  clear(): Promise<void>;
  /** Takes the runtime's warnings while the UI draws (they would garble the screen on stderr); returns a release. */
  onWarning?(listener: (line: string) => void): () => void;
  /** The welcome panel's facts, shown once at the start. */
  welcome?(): HostWelcome;
  /** What messages about failed model requests name (provider, model, base URL and its variable). */
  errorContext?(): ModelErrorContext;
  /** Where the transcript is. */
  transcriptPath(): string;
  /** Flushes and closes (MCP servers, background tasks). */
  close(): Promise<void>;
  /** `/model NAME`: the next requests go to `model` (`status().model` shows it). */
  setModel?(model: string): void;
  /** `/cost`: tokens and cost of the session so far, by model. */
  describeCost?(): string;
  /** `/config`: the settings in force. */
  describeConfig?(): string;
  /** `/doctor`: what `toolplane doctor` reports. */
  doctor?(signal: AbortSignal): Promise<string>;
  /** `/agents`: the subagent types the model can start. */
  describeAgents?(): string;
  /** The custom slash commands as they are now on disk, and what is wrong with their files. */
  customCommands?(): CustomCommandList;
  /** Runs a custom command (from `customCommands`) as one turn (its shell lines first, through the plane); see `runCustomCommand`. */
  runCustomCommand?(
    command: CustomCommand,
    argument: string,
    signal: AbortSignal,
  ): AsyncGenerator<LoopEvent, QueryResult>;
};
