import type { AnyTool, JsonSchemaObject } from '../contract/tool.js';
import { ToolplaneError } from '../errors/toolplane-error.js';
import type { QueryOptions } from '../loop/types.js';
import { compileJsonSchema } from '../schema/compile-json-schema.js';
import {
  createStructuredOutputTool,
  STRUCTURED_OUTPUT_TOOL_NAME,
} from '../tools/structured-output/structured-output-tool.js';

/** A run whose result is JSON matching a schema, delivered through the StructuredOutput tool. */
export type StructuredOutputOptions = {
  /** JSON Schema draft-07 or 2020-12 (what Zod 4's `z.toJSONSchema` emits); must describe an object. */
  readonly schema: JsonSchemaObject;
  /** Reminders when the model stops without a successful call. Default 3. */
  readonly maxReminders?: number;
  /** Failed calls before the run ends with `error_max_structured_output_retries`. Default 5. */
  readonly maxFailedCalls?: number;
};

const DEFAULT_MAX_REMINDERS = 3;

/**
 * The StructuredOutput tool for `options` and the loop's requirement that a run ends with a
 * successful call of it; none without options. Throws `INVALID_TOOL_DEFINITION` for a schema that
 * does not compile or does not describe an object, before anything starts.
 */
export function structuredOutputSetup(options: StructuredOutputOptions | undefined): {
  readonly tools: readonly AnyTool[];
  readonly requiredTool?: NonNullable<QueryOptions['requiredTool']>;
} {
  if (options === undefined) return { tools: [] };
  checkStructuredOutputSchema(options.schema);
  return {
    tools: [createStructuredOutputTool(options.schema)],
    requiredTool: {
      name: STRUCTURED_OUTPUT_TOOL_NAME,
      maxReminders: options.maxReminders ?? DEFAULT_MAX_REMINDERS,
      ...(options.maxFailedCalls !== undefined ? { maxFailedCalls: options.maxFailedCalls } : {}),
    },
  };
}

/**
 * Throws `INVALID_TOOL_DEFINITION` when `schema` does not compile (draft-07 or 2020-12) or does not
 * describe an object; for hosts that check an argument before they start anything.
 */
export function checkStructuredOutputSchema(schema: JsonSchemaObject): void {
  try {
    compileJsonSchema(schema);
  } catch (error) {
    throw new ToolplaneError(
      'INVALID_TOOL_DEFINITION',
      `The JSON Schema for structured output does not compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  createStructuredOutputTool(schema);
}
