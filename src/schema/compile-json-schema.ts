import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchemaObject } from '../contract/tool.js';

// Ajv is a quarter of a megabyte of code that only raw JSON Schemas (MCP tools, structured
// output) need: loaded on the first such schema, not at startup.
const loadModule = createRequire(import.meta.url);
// `addUsedSchema: false`: a compiled schema is not registered under its `$id`, so two schemas of
// different tools or sessions that share an `$id` are each validated by their own definition
// instead of the second failing to compile ("schema with key or id already exists").
const options = { allErrors: true, strict: false, validateFormats: false, addUsedSchema: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** Draft 2020-12 schemas (zod 4's output, many MCP servers) need Ajv's 2020 dialect; others the default (draft-07). */
function compilerFor(dialect: string): Ajv | Ajv2020 {
  if (dialect.includes('2020-12')) {
    draft2020 ??= new (loadModule('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020(options);
    return draft2020;
  }
  draft07 ??= new (loadModule('ajv') as { Ajv: typeof Ajv }).Ajv(options);
  return draft07;
}

/**
 * Compiles a raw JSON Schema with Ajv: draft 2020-12 when its `$schema` says so (`prefixItems`,
 * `$defs`, …), draft-07 otherwise; an unknown `$schema` is dropped and the keywords are used as they
 * are. Schemas are isolated from each other: a shared `$id` never collides. Throws Ajv's error for
 * a schema that does not compile.
 */
export function compileJsonSchema(schema: JsonSchemaObject): ValidateFunction {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const known = dialect === '' || dialect.includes('2020-12') || dialect.includes('draft-07');
  return compilerFor(dialect).compile(known ? schema : { ...schema, $schema: undefined });
}
