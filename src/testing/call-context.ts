import type { CallApproval, PermissionMode } from '../contract/permission.js';
import { createServices, type Services } from '../contract/services.js';
import type { ToolCallContext, ToolProgress } from '../contract/tool.js';

/**
 * A call context for running a tool directly in a test (outside the plane): defaults for every
 * field, and the services the test registers.
 */
export function createCallContext(
  options: {
    readonly services?: Services;
    readonly cwd?: string;
    readonly agentId?: string;
    readonly toolUseId?: string;
    readonly signal?: AbortSignal;
    readonly permissionMode?: PermissionMode;
    readonly onProgress?: (progress: ToolProgress) => void;
    /** How the plane would have approved the call (Bash picks its sandbox profile from it). */
    readonly approval?: CallApproval;
  } = {},
): ToolCallContext {
  return {
    toolUseId: options.toolUseId ?? 'toolu_test',
    signal: options.signal ?? new AbortController().signal,
    cwd: options.cwd ?? '/tmp',
    sessionId: 'test-session',
    agentId: options.agentId ?? 'main',
    permissionMode: options.permissionMode ?? 'default',
    services: options.services ?? createServices(),
    reportProgress: options.onProgress ?? (() => undefined),
    ...(options.approval ? { approval: options.approval } : {}),
  };
}
