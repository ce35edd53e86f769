/** Stable codes for faults of the runtime itself (never for a tool's failure, which is a result). */
export type ToolplaneErrorCode =
  | 'INVALID_TOOL_DEFINITION'
  | 'DUPLICATE_TOOL_USE'
  | 'EXECUTOR_CLOSED'
  | 'SETTINGS_INVALID'
  | 'SESSION_CORRUPT'
  | 'PROVIDER_ERROR'
  | 'MCP_ERROR'
  | 'SCRIPT_MISMATCH'
  | 'MISSING_SERVICE'
  | 'INTERNAL';

/**
 * An error thrown by the runtime itself, with a stable `code` callers can switch on.
 * Tool failures never throw out of the plane: they become `is_error` results.
 */
export class ToolplaneError extends Error {
  readonly code: ToolplaneErrorCode;

  constructor(code: ToolplaneErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolplaneError';
    this.code = code;
  }
}

/** Renders any thrown value as one readable line (Error message, else its string form). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
