export { getInputParser, jsonSchemaProblem, type InputParser, type ParseResult } from './parse-input.js';
export { createApiToolCache, toInputJsonSchema, type ApiToolCache, type ApiToolOptions } from './to-api-tool.js';
