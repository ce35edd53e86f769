import type { ToolCallRecord } from '../execution/types.js';

/** The Agent SDK's limit: the run ends after this many failed calls of the required tool. */
export const DEFAULT_MAX_FAILED_REQUIRED_CALLS = 5;

/**
 * What one batch did with the required tool (StructuredOutput): the input of its first successful
 * call, and how many of its calls failed (schema errors, refusals, error results). A call that a
 * failing sibling cancelled or the person aborted never had its chance, so it does not count.
 */
export function requiredToolCalls(
  records: readonly ToolCallRecord[],
  toolName: string,
): { readonly input?: unknown; readonly failed: number } {
  let failed = 0;
  for (const record of records) {
    if (record.toolName !== toolName) continue;
    const { outcome } = record;
    if (outcome.status === 'success' && !outcome.isError) return { input: record.input, failed };
    if (outcome.status !== 'cancelled' && outcome.status !== 'aborted') failed++;
  }
  return { failed };
}
