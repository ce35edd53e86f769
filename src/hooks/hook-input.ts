import { isAbsolute, join, resolve } from 'node:path';
import type { HookEventName } from '../contract/hook-config.js';
import type { PermissionMode } from '../contract/permission.js';
import type { HookInput } from './hook-types.js';

/** The session a hook runs in. */
export type HookSession = {
  readonly sessionId: string;
  /** The session's working folder. */
  readonly cwd: string;
  readonly permissionMode: PermissionMode;
  /** `main` for the top-level agent, else the subagent's id. */
  readonly agentId?: string;
};

/** Options for {@link buildHookInput}. */
export type BuildHookInputOptions = {
  readonly event: HookEventName;
  readonly session: HookSession;
  readonly transcriptPath: string;
  /** Event-specific fields (`tool_name`, `prompt`, …). */
  readonly fields: Readonly<Record<string, unknown>>;
};

/** Builds the JSON a hook receives: the common fields, then the event's own. */
export function buildHookInput(options: BuildHookInputOptions): HookInput {
  const { session } = options;
  const input: Record<string, unknown> = {
    session_id: session.sessionId,
    transcript_path: options.transcriptPath,
    cwd: session.cwd,
    permission_mode: session.permissionMode,
    hook_event_name: options.event,
  };
  if (session.agentId !== undefined && session.agentId !== 'main') input['agent_id'] = session.agentId;
  for (const field in options.fields) {
    if (Object.hasOwn(options.fields, field)) input[field] = options.fields[field];
  }
  return input as HookInput;
}

const PATH_FIELDS = ['file_path', 'notebook_path'] as const;

/**
 * The tool input as hooks see it: `file_path` and `notebook_path` made absolute (`~` expanded,
 * relative paths resolved against the session's folder), so a hook cannot be dodged by spelling a
 * path differently. Other fields are passed as they are; the call's own input is not changed.
 */
export function toolInputForHooks(
  input: unknown,
  options: { readonly cwd: string; readonly homeDir: string | undefined },
): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const field of PATH_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || value === '') continue;
    let absolute = value;
    if ((value === '~' || value.startsWith('~/')) && options.homeDir !== undefined)
      absolute = join(options.homeDir, value.slice(1));
    absolute = isAbsolute(absolute) ? absolute : resolve(options.cwd, absolute);
    if (absolute === value) continue;
    copy ??= { ...record };
    copy[field] = absolute;
  }
  return copy ?? input;
}
