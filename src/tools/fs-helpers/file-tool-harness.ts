import type { ZodType } from 'zod';
import type { MappedResult, Tool, ToolCallContext } from '../../contract/tool.js';
import { createServices } from '../../contract/services.js';
import { fileStateService, type FileStateStore } from '../file-state/file-state-store.js';

/** Options for {@link createFileToolContext}. */
export type FileToolContextOptions = {
  readonly cwd: string;
  /** The agent's file-state store; omitted, none is registered (the tools then refuse). */
  readonly store?: FileStateStore;
  readonly signal?: AbortSignal;
  readonly agentId?: string;
};

/**
 * A call context for running the file tools outside the plane (tests, benchmarks, scripts),
 * with the file-state store registered the way a host would.
 */
export function createFileToolContext(options: FileToolContextOptions): ToolCallContext {
  const services = createServices();
  if (options.store !== undefined) services.set(fileStateService, options.store);
  return {
    toolUseId: 'toolu_harness',
    signal: options.signal ?? new AbortController().signal,
    cwd: options.cwd,
    sessionId: 'harness',
    agentId: options.agentId ?? 'main',
    permissionMode: 'default',
    services,
    reportProgress: () => undefined,
  };
}

/**
 * Runs one call the way the plane's gates would, minus hooks and permissions: schema parse,
 * `validateInput`, `call`, `mapResult`. Each refusal comes back as an `is_error` result.
 */
export async function runFileTool<I, O>(
  tool: Tool<I, O>,
  input: unknown,
  context: ToolCallContext,
): Promise<MappedResult> {
  const schema = tool.inputSchema as ZodType<I>;
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { content: `Invalid input: ${parsed.error.message}`, isError: true };
  const validation = await tool.validateInput(parsed.data, context);
  if (!validation.ok) return { content: validation.message, isError: true };
  const output = await tool.call(parsed.data, context);
  return tool.mapResult(output, context.toolUseId);
}
