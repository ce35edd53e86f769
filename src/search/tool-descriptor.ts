import type { JsonSchemaObject } from '../contract/tool.js';

/** What the search index knows about one tool: its name and the texts that describe it. */
export type ToolDescriptor = {
  /** The tool's name in the pool: what a search returns. */
  readonly name: string;
  readonly description: string;
  /** Extra words from the tool's author, weighted above the description. */
  readonly searchHint?: string | undefined;
  /** The input's JSON Schema: parameter names, descriptions and enum values are indexed. */
  readonly inputSchema?: JsonSchemaObject | undefined;
  /** The MCP server (or other group) the tool comes from; parsed from `mcp__server__tool` if absent. */
  readonly server?: string | undefined;
  /** The tool's own name at its server; parsed from `mcp__server__tool` if absent. */
  readonly toolName?: string | undefined;
};

/** The texts of a descriptor, one per ranking field. */
export type DescriptorFields = {
  readonly name: string;
  readonly server: string;
  readonly hint: string;
  /** The description's first sentence: what the tool does, without the usage notes that follow. */
  readonly summary: string;
  readonly description: string;
  readonly parameters: string;
};

const MCP_NAME = /^mcp__(.+?)__(.+)$/;
/** How deep parameter schemas are walked (nested objects, array items). */
const MAX_SCHEMA_DEPTH = 4;
/** Parameter texts past this many characters are cut: a huge schema should not drown its name. */
const MAX_PARAMETER_CHARS = 4_000;

/** Splits a descriptor into the texts of its ranking fields. */
export function descriptorFields(descriptor: ToolDescriptor): DescriptorFields {
  const parsed = MCP_NAME.exec(descriptor.name);
  const server = descriptor.server ?? parsed?.[1] ?? '';
  const toolName = descriptor.toolName ?? parsed?.[2] ?? descriptor.name;
  const parts: string[] = [];
  if (descriptor.inputSchema !== undefined) collectSchemaText(descriptor.inputSchema, parts, 0);
  let parameters = parts.join(' ');
  if (parameters.length > MAX_PARAMETER_CHARS) parameters = parameters.slice(0, MAX_PARAMETER_CHARS);
  return {
    name: toolName,
    server,
    hint: descriptor.searchHint ?? '',
    summary: firstSentence(descriptor.description),
    description: descriptor.description,
    parameters,
  };
}

const SENTENCE_END = /(?<=[.!?。！？])\s|\n/;

/** The first sentence (or line) of a text. */
export function firstSentence(text: string): string {
  return text.trim().split(SENTENCE_END)[0] ?? '';
}

function collectSchemaText(schema: unknown, parts: string[], depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH || typeof schema !== 'object' || schema === null) return;
  const record = schema as Record<string, unknown>;
  const properties = record['properties'];
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    for (const [key, value] of Object.entries(properties)) {
      parts.push(key);
      if (typeof value === 'object' && value !== null) {
        const property = value as Record<string, unknown>;
        const description = property['description'];
        if (typeof description === 'string') parts.push(description);
        const values = property['enum'];
        if (Array.isArray(values)) {
          for (const item of values) if (typeof item === 'string') parts.push(item);
        }
        collectSchemaText(property, parts, depth + 1);
      }
    }
  }
  const items = record['items'];
  if (typeof items === 'object' && items !== null) collectSchemaText(items, parts, depth + 1);
  for (const combinator of ['anyOf', 'oneOf', 'allOf']) {
    const options = record[combinator];
    if (Array.isArray(options)) for (const option of options) collectSchemaText(option, parts, depth + 1);
  }
}
