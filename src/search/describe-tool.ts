import { z } from 'zod';
import type { AnyTool, JsonSchemaObject } from '../contract/tool.js';
import type { ToolDescriptor } from './tool-descriptor.js';

const schemaCache = new WeakMap<object, JsonSchemaObject | undefined>();

/**
 * The search descriptor of a pool tool: its name, its description (a `prompt` function is
 * rendered with no sibling names), its search hint, its input schema as JSON Schema (Zod schemas
 * converted once per schema object) and, for external tools, its server and own name.
 */
export function describeToolForSearch(tool: AnyTool): ToolDescriptor {
  let description: string;
  try {
    description = typeof tool.prompt === 'string' ? tool.prompt : tool.prompt({ toolNames: [] });
  } catch {
    // A prompt that fails to render still leaves the name and schema to search on.
    description = '';
  }
  return {
    name: tool.name,
    description,
    searchHint: tool.searchHint,
    inputSchema: jsonSchemaOf(tool.inputSchema),
    server: tool.external?.server,
    toolName: tool.external?.tool,
  };
}

function jsonSchemaOf(schema: AnyTool['inputSchema']): JsonSchemaObject | undefined {
  if ('kind' in schema && schema.kind === 'json-schema') return schema.schema;
  if (schemaCache.has(schema)) return schemaCache.get(schema);
  let converted: JsonSchemaObject | undefined;
  try {
    converted = z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' }) as JsonSchemaObject;
  } catch {
    converted = undefined;
  }
  schemaCache.set(schema, converted);
  return converted;
}
