import type { AnyTool } from '../contract/tool.js';
import { describeError } from '../errors/toolplane-error.js';
import { getRefusedInput, inputDepthExceeds, TOO_DEEP_REASON } from '../messages/tool-input-shape.js';
import { getUnparseableInput, type ToolUseBlock } from '../messages/types.js';
import type { ToolPool } from '../pool/tool-pool.js';
import { getInputParser, type ParseResult } from '../schema/parse-input.js';

/** A call after lookup and schema parse: what the scheduler needs to place it. */
export type PreparedCall = {
  readonly block: ToolUseBlock;
  readonly tool: AnyTool | undefined;
  /** Undefined when the tool is unknown or the input was refused. */
  readonly parsed: ParseResult | undefined;
  /** May run in parallel with its neighbours. False when anything about it is uncertain. */
  readonly concurrencySafe: boolean;
  /**
   * Set when the plane refuses the input's shape before reading it (nested too deeply, or the
   * placeholder of an input refused earlier): the call is answered with this and nothing else runs.
   */
  readonly refusal?: string;
};

/**
 * Refuses an input nested more than `MAX_TOOL_INPUT_DEPTH` levels, then finds the tool (by name,
 * then alias; never by a guess) and parses the input against its schema.
 * Unparseable JSON and a deferred tool whose schema was never sent become parse failures with
 * their own messages. A call whose input does not parse, or whose safety check throws, is unsafe.
 */
export function prepareCall(
  block: ToolUseBlock,
  options: { readonly pool: ToolPool; readonly isSchemaLoaded?: ((tool: AnyTool) => boolean) | undefined },
): PreparedCall {
  const { pool, isSchemaLoaded } = options;
  // First, before any recursive walk (the schema parse, a summary) can meet a deep input.
  const refusal = getRefusedInput(block.input) ?? (inputDepthExceeds(block.input) ? TOO_DEEP_REASON : undefined);
  if (refusal !== undefined)
    return { block, tool: pool.find(block.name), parsed: undefined, concurrencySafe: false, refusal };
  const tool = pool.find(block.name);
  if (!tool) return { block, tool, parsed: undefined, concurrencySafe: false };
  const raw = getUnparseableInput(block.input);
  if (raw !== undefined) {
    return { block, tool, parsed: { ok: false, message: describeInvalidJson(raw) }, concurrencySafe: false };
  }
  if (isSchemaLoaded && !isSchemaLoaded(tool)) {
    return {
      block,
      tool,
      parsed: {
        ok: false,
        message: `${tool.name} is a deferred tool whose schema has not been loaded. Call ToolSearch with "select:${tool.name}" first, then call ${tool.name} with the schema it returns.`,
      },
      concurrencySafe: false,
    };
  }
  let parsed: ParseResult;
  try {
    parsed = getInputParser(tool)(block.input);
  } catch (error) {
    // A schema's own code (a refinement, a transform) may throw; the call is answered, never lost.
    parsed = {
      ok: false,
      message: `The input could not be checked against ${tool.name}'s schema: ${describeError(error)}`,
    };
  }
  let concurrencySafe = false;
  if (parsed.ok) {
    try {
      concurrencySafe = tool.isConcurrencySafe(parsed.value) === true;
    } catch {
      concurrencySafe = false;
    }
  }
  return { block, tool, parsed, concurrencySafe };
}

function describeInvalidJson(raw: string): string {
  let reason = 'it is not valid JSON';
  try {
    JSON.parse(raw);
    reason = 'it is not a JSON object';
  } catch (error) {
    if (error instanceof Error) reason = `it is not valid JSON (${error.message})`;
  }
  const excerpt = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  return `The input could not be read: ${reason}. Received: ${JSON.stringify(excerpt)}. Send a single JSON object matching the tool's input schema.`;
}
