import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ZodType } from 'zod';
import type { AnyTool, InputSchema, JsonSchemaObject, RawJsonSchema } from '../contract/tool.js';
import { compileJsonSchema } from './compile-json-schema.js';

/** The outcome of parsing a tool input: the typed value, or a message for the model. */
export type ParseResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** Parses an input against one tool's schema. */
export type InputParser = (input: unknown) => ParseResult;

const parsers = new WeakMap<object, InputParser>();

function isRawJsonSchema(schema: InputSchema<unknown>): schema is RawJsonSchema {
  return (schema as RawJsonSchema).kind === 'json-schema' && typeof (schema as ZodType).safeParse !== 'function';
}

/**
 * Returns the parser for a tool's input schema, compiled once per schema object (Zod schemas are
 * used as they are; raw JSON Schemas are compiled with Ajv). Error messages name the field, the
 * expected type and the received one.
 */
export function getInputParser(tool: AnyTool): InputParser {
  const schema = tool.inputSchema as InputSchema<unknown>;
  const key = isRawJsonSchema(schema) ? schema.schema : schema;
  let parser = parsers.get(key);
  if (!parser) {
    parser = isRawJsonSchema(schema) ? jsonSchemaParser(schema.schema) : zodParser(schema);
    parsers.set(key, parser);
  }
  return parser;
}

function zodParser(schema: ZodType): InputParser {
  return (input) => {
    const result = schema.safeParse(input);
    if (result.success) return { ok: true, value: result.data };
    const problems = result.error.issues.map((issue) => describeZodIssue(issue, input));
    return { ok: false, message: problems.join('\n') };
  };
}

type ZodIssueLike = {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly keys?: readonly string[];
};

function describeZodIssue(issue: ZodIssueLike, input: unknown): string {
  const field = formatPath(issue.path);
  const received = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (received.present === false) {
        return `The required parameter ${field} is missing (expected ${String(issue.expected)}).`;
      }
      return `The parameter ${field} must be ${String(issue.expected)}, but received ${typeName(received.value)}.`;
    case 'unrecognized_keys':
      return `Unexpected parameter${issue.keys && issue.keys.length > 1 ? 's' : ''} ${(issue.keys ?? []).map((key) => `"${key}"`).join(', ')}${issue.path.length > 0 ? ` in ${field}` : ''}.`;
    default:
      return `The parameter ${field} is invalid: ${issue.message} (received ${describeValue(received)}).`;
  }
}

/**
 * Why `schema` cannot be compiled as a tool's input schema (Ajv's message), or `undefined` when it
 * can.
 */
export function jsonSchemaProblem(schema: JsonSchemaObject): string | undefined {
  try {
    compileJsonSchema(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function jsonSchemaParser(schema: JsonSchemaObject): InputParser {
  let validate: ValidateFunction;
  try {
    validate = compileJsonSchema(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return () => ({ ok: false, message: `This tool's input schema is invalid (${reason}); it cannot be called.` });
  }
  return (input) => {
    if (validate(input)) return { ok: true, value: input };
    const problems = (validate.errors ?? []).map((error) => describeAjvError(error, input));
    return { ok: false, message: [...new Set(problems)].join('\n') };
  };
}

function describeAjvError(error: ErrorObject, input: unknown): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty?: string }).missingProperty);
      return `The required parameter ${formatPath([...path, missing])} is missing.`;
    }
    case 'type': {
      const received = valueAt(input, path);
      return `The parameter ${formatPath(path)} must be ${String((error.params as { type?: unknown }).type)}, but received ${describeValue(received)}.`;
    }
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
      return `Unexpected parameter "${extra}"${path.length > 0 ? ` in ${formatPath(path)}` : ''}.`;
    }
    default:
      return `The parameter ${formatPath(path)} ${error.message ?? 'is invalid'} (received ${describeValue(valueAt(input, path))}).`;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'input';
  return `"${path
    .map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment)))
    .join('.')
    .replace(/\.\[/g, '[')}"`;
}

type Lookup = { readonly present: true; readonly value: unknown } | { readonly present: false };

function valueAt(input: unknown, path: readonly PropertyKey[]): Lookup {
  let current: unknown = input;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return { present: false };
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return { present: false };
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value: current };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function describeValue(lookup: Lookup): string {
  if (!lookup.present) return 'nothing';
  const type = typeName(lookup.value);
  if (type === 'string' || type === 'number' || type === 'boolean') {
    const text = JSON.stringify(lookup.value);
    return `${type} ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
  }
  return type;
}
