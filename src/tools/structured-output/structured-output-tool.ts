import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import { jsonSchema, type JsonSchemaObject, type Tool } from '../../contract/tool.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';

/** The model-facing name of the structured-output tool. */
export const STRUCTURED_OUTPUT_TOOL_NAME = 'StructuredOutput';

/**
 * Creates the tool through which the model delivers a run's result as JSON matching `schema`
 * (`--json-schema`). The plane validates the input against the schema (draft-07 or 2020-12); an
 * invalid call is an error result the model can correct. A session made with `structuredOutput`
 * adds this tool itself, checks that the schema compiles, and ends the run after 5 failed calls.
 * Throws `INVALID_TOOL_DEFINITION` for a schema that does not describe an object.
 */
export function createStructuredOutputTool(schema: JsonSchemaObject): Tool<Record<string, unknown>, string> {
  if (schema.type !== undefined && schema.type !== 'object') {
    throw new ToolplaneError(
      'INVALID_TOOL_DEFINITION',
      'The JSON Schema for structured output must describe an object (type: "object").',
    );
  }
  return defineBuiltinTool('StructuredOutput', {
    name: STRUCTURED_OUTPUT_TOOL_NAME,
    inputSchema: jsonSchema(schema),
    prompt:
      'Delivers the final result of this task as JSON. Call it exactly once, when the work is done, with input that matches its schema: it is how the caller receives your answer. If the call is refused, fix the fields it names and call it again.',
    alwaysLoad: true,
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    describeInput: () => 'deliver the structured result',
    call: async () => 'Structured output received.',
  });
}
