import { readFileSync } from 'node:fs';
import type { JsonSchemaObject } from '../../contract/tool.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';

/** `--json-schema` takes inline JSON or the path of a file holding it. */
export function parseJsonSchemaArgument(value: string): JsonSchemaObject {
  let text = value.trim();
  try {
    if (!text.startsWith('{')) text = readFileSync(text, 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as JsonSchemaObject;
  } catch (error) {
    throw new ToolplaneError(
      'SETTINGS_INVALID',
      `--json-schema must be a JSON Schema object: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
