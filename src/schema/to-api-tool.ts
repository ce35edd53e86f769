import { z, type ZodType } from 'zod';
import type { ApiToolDefinition } from '../messages/types.js';
import type { AnyTool, InputSchema, JsonSchemaObject, RawJsonSchema } from '../contract/tool.js';

/** How one tool is sent this turn. */
export type ApiToolOptions = {
  /** Send with `defer_loading: true` (its schema is loaded through ToolSearch). */
  readonly deferLoading?: boolean;
};

/** Converts a tool's input schema to the JSON Schema the API takes (always `type: object`). */
export function toInputJsonSchema(schema: InputSchema<unknown>): JsonSchemaObject {
  if ((schema as RawJsonSchema).kind === 'json-schema' && typeof (schema as ZodType).safeParse !== 'function') {
    const raw = (schema as RawJsonSchema).schema;
    return raw.type === 'object' ? raw : { ...raw, type: 'object' };
  }
  const converted = z.toJSONSchema(schema as ZodType, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete converted.$schema;
  return converted;
}

/**
 * A per-session cache of `tools[]` entries: each tool's description and schema are rendered once,
 * so the request bytes stay identical turn to turn while the pool does not change (the prompt-cache
 * prefix depends on it). Keyed by tool object; a changed tool (new object) renders anew.
 */
export type ApiToolCache = {
  toApiTool(tool: AnyTool, options?: ApiToolOptions): ApiToolDefinition;
  /** Renders a whole pool, in pool order. */
  toApiTools(tools: readonly AnyTool[], deferred?: ReadonlySet<string>): ApiToolDefinition[];
};

/** Creates an empty cache; `toolNames` for prompts are taken from the first pool rendered. */
export function createApiToolCache(): ApiToolCache {
  const base = new WeakMap<AnyTool, ApiToolDefinition>();
  const deferredVariants = new WeakMap<AnyTool, ApiToolDefinition>();
  let toolNames: readonly string[] = [];

  function render(tool: AnyTool): ApiToolDefinition {
    const description = typeof tool.prompt === 'function' ? tool.prompt({ toolNames }) : tool.prompt;
    const definition: ApiToolDefinition = {
      name: tool.name,
      description,
      input_schema: toInputJsonSchema(tool.inputSchema as InputSchema<unknown>),
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
      ...(tool.cacheControl ? { cache_control: tool.cacheControl } : {}),
    };
    return definition;
  }

  const cache: ApiToolCache = {
    toApiTool(tool, options) {
      let definition = base.get(tool);
      if (!definition) {
        definition = render(tool);
        base.set(tool, definition);
      }
      if (!options?.deferLoading) return definition;
      let deferredDefinition = deferredVariants.get(tool);
      if (!deferredDefinition) {
        deferredDefinition = { ...definition, defer_loading: true };
        deferredVariants.set(tool, deferredDefinition);
      }
      return deferredDefinition;
    },
    toApiTools(tools, deferred) {
      if (toolNames.length === 0) toolNames = tools.map((tool) => tool.name);
      return tools.map((tool) => cache.toApiTool(tool, { deferLoading: deferred?.has(tool.name) ?? false }));
    },
  };
  return cache;
}
