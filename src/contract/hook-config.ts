import type { RuleSource } from './permission.js';

/**
 * Hook configuration as settings deliver it: the data the settings loader produces and the hook
 * runner consumes (the same shape as the reference system's `hooks` settings key).
 */

/** The hook events toolplane runs. */
export type HookEventName =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PermissionRequest'
  | 'PermissionDenied'
  | 'UserPromptSubmit'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'SessionStart'
  | 'SessionEnd'
  | 'PreCompact'
  | 'PostCompact'
  | 'StopFailure'
  | 'Notification'
  | 'InstructionsLoaded'
  | 'ConfigChange';

export const HOOK_EVENT_NAMES: readonly HookEventName[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'StopFailure',
  'Notification',
  'InstructionsLoaded',
  'ConfigChange',
];

/**
 * Events Claude Code's hooks reference documents that toolplane does not fire, each with the
 * feature it lacks: their hooks are reported at start by name, never dropped in silence.
 */
export const UNSUPPORTED_HOOK_EVENTS: ReadonlyMap<string, string> = new Map([
  ['Setup', 'no setup or maintenance runs (--init, --maintenance)'],
  ['TeammateIdle', 'no agent teams'],
  ['TaskCreated', 'no agent teams and their shared task list'],
  ['TaskCompleted', 'no agent teams and their shared task list'],
  ['WorktreeCreate', 'no worktree isolation for agents'],
  ['WorktreeRemove', 'no worktree isolation for agents'],
  ['CwdChanged', "a session's working folder never changes"],
  ['FileChanged', 'no watching of project files'],
  ['Elicitation', 'no MCP elicitation'],
  ['ElicitationResult', 'no MCP elicitation'],
  ['PostToolBatch', 'no event after a batch of tool calls'],
  ['UserPromptExpansion', 'no slash commands that expand a prompt'],
  ['MessageDisplay', 'no hook on how messages are shown'],
  ['DirectoryAdded', "a session's folders are fixed when it starts"],
]);

/**
 * Why hooks of `event`, which is not in {@link HOOK_EVENT_NAMES}, never run: an event of the
 * reference toolplane has no feature for, or an unknown name (with the known one it differs from
 * only in case, when there is one).
 */
export function unsupportedHookEventMessage(event: string): string {
  const name = JSON.stringify(event);
  const lacking = UNSUPPORTED_HOOK_EVENTS.get(event);
  if (lacking !== undefined)
    return `hook event ${name} is one Claude Code has, but toolplane has no such feature (${lacking}); its hooks never run`;
  const known = [...HOOK_EVENT_NAMES, ...UNSUPPORTED_HOOK_EVENTS.keys()];
  const near = known.find((candidate) => candidate.toLowerCase() === event.toLowerCase());
  return `hook event ${name} is unknown${near === undefined ? '' : ` (did you mean ${near}?)`}; its hooks are ignored`;
}

/** One shell command run for an event. */
export type CommandHookConfig = {
  readonly type: 'command';
  /** Run by the shell exactly as written; toolplane never pastes values into it. */
  readonly command: string;
  /** Seconds before the command's whole process group is killed. Default 60. */
  readonly timeout?: number;
  /**
   * toolplane extension: when the hook crashes, times out or prints garbage, a PreToolUse call is
   * denied and a PermissionRequest is denied, instead of the reference's non-blocking error.
   */
  readonly failClosed?: boolean;
  /**
   * Tool events: a permission rule (`Bash(git push:*)`, `Edit(/src/**)`); the hook starts only for
   * a call that rule would match, judged as a deny rule would judge it.
   */
  readonly if?: string;
  /**
   * The hook starts and the call goes on without waiting: it can never allow or block what
   * started it; what it says when it ends (`additionalContext`, `systemMessage`) is reported then
   * and goes with the next prompt.
   */
  readonly async?: boolean;
};

/** A hook that POSTs the event's JSON to a URL and reads the answer from the response body. */
export type HttpHookConfig = {
  readonly type: 'http';
  readonly url: string;
  /** Request headers; `$VAR` / `${VAR}` are replaced only for variables named in `allowedEnvVars`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly allowedEnvVars?: readonly string[];
  /** Seconds before the request is abandoned. Default 60. */
  readonly timeout?: number;
  /** As for command hooks: a failure denies the call instead of being a non-blocking error. */
  readonly failClosed?: boolean;
  /** As for command hooks: the permission rule a call must match for the hook to start. */
  readonly if?: string;
  /** As for command hooks: started without waiting, never deciding. */
  readonly async?: boolean;
};

/**
 * A hook a model answers: `prompt` asks the session's provider once (no tools) to judge the
 * event's JSON against `prompt`; `agent` gives the same brief to a subagent with read-only tools
 * (Read, Grep, Glob) that may look before it answers. Both answer `{"ok": true}`,
 * `{"ok": false, "reason": …}` or the hook output shape. A model's answer never grants a
 * permission: it can deny, ask, rewrite or add context; its `allow` only means no objection.
 */
export type ModelHookConfig = {
  readonly type: 'prompt' | 'agent';
  /** The instruction; `$ARGUMENTS` is replaced by the event's JSON, which is appended when it is absent. */
  readonly prompt: string;
  /** The model to ask; default a small model of the session's provider (its main model when it has none). */
  readonly model?: string;
  /** Seconds before the request (or the subagent) is abandoned. Default 30 for `prompt`, 60 for `agent`. */
  readonly timeout?: number;
  /** As for command hooks: a failure denies the call instead of being a non-blocking error. */
  readonly failClosed?: boolean;
  /** As for command hooks: the permission rule a call must match for the hook to start. */
  readonly if?: string;
  /** As for command hooks: started without waiting, never deciding. */
  readonly async?: boolean;
};

/**
 * A hook that calls a tool of a configured MCP server with `input` (strings of the form
 * `${tool_input.file_path}`, `${session_id}`, … are filled from the event's JSON) and reads the
 * tool's text like a command's stdout; a tool error is a non-blocking error.
 */
export type McpToolHookConfig = {
  readonly type: 'mcp_tool';
  /** The server's name, as configured. */
  readonly server: string;
  /** The tool's own name on that server (not `mcp__…`). */
  readonly tool: string;
  readonly input?: Readonly<Record<string, unknown>>;
  /** Seconds before the call is cancelled. Default 60. */
  readonly timeout?: number;
  readonly failClosed?: boolean;
  readonly if?: string;
  readonly async?: boolean;
};

/** Any hook a settings file can configure. */
export type HookConfig = CommandHookConfig | HttpHookConfig | ModelHookConfig | McpToolHookConfig;

/** A matcher and the commands it runs, as read from one settings source. */
export type HookMatcherConfig = {
  /** Tool-name matcher: `*`/empty/absent = all, exact names with `|`, else an unanchored regex. */
  readonly matcher?: string;
  readonly hooks: readonly HookConfig[];
  readonly source: RuleSource;
  /** The settings file it came from, when it came from a file. */
  readonly file?: string;
  /** Where `/path` in its hooks' `if` rules is anchored, as for the file's permission rules (default: the project). */
  readonly root?: string;
};

/** Every hook matcher per event, highest-precedence source first. */
export type HookSettings = ReadonlyMap<HookEventName, readonly HookMatcherConfig[]>;

/** What a hook runs, in a person's words: its command, its url, its prompt's start, or its server and tool. */
export function hookLabel(hook: HookConfig): string {
  switch (hook.type) {
    case 'command':
      return hook.command;
    case 'http':
      return hook.url;
    case 'mcp_tool':
      return `${hook.server}/${hook.tool}`;
    default:
      return hook.prompt.length > 60 ? `${hook.prompt.slice(0, 60)}…` : hook.prompt;
  }
}
