import { describeError } from '../errors/toolplane-error.js';

/** One readable line for an error from the SDK, without its `MCP error -32603: ` prefix. */
export function describeMcpError(error: unknown): string {
  return describeError(error).replace(/^MCP error -?\d+: /, '');
}

/** A schema validation error (Zod's `issues`), as the SDK rejects a message that does not parse. */
export function isSchemaError(error: unknown): boolean {
  return error instanceof Error && Array.isArray((error as { issues?: unknown }).issues);
}
