import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { jsonSchema } from '../contract/tool.js';
import { getInputParser } from './parse-input.js';

const zodTool = defineTool({
  name: 'Z',
  inputSchema: z
    .object({ path: z.string(), limit: z.number().int().positive().optional(), flags: z.array(z.string()).optional() })
    .strict(),
  prompt: 'x',
  call: async () => '',
});
const rawTool = defineTool({
  name: 'R',
  inputSchema: jsonSchema({
    type: 'object',
    properties: {
      query: { type: 'string' },
      page: { type: 'integer', minimum: 1 },
      nested: { type: 'object', properties: { on: { type: 'boolean' } } },
    },
    required: ['query'],
    additionalProperties: false,
  }),
  prompt: 'x',
  call: async () => '',
});

describe('getInputParser', () => {
  it('parses valid input with Zod and with a raw JSON Schema', () => {
    expect(getInputParser(zodTool)({ path: '/a', limit: 3 })).toEqual({ ok: true, value: { path: '/a', limit: 3 } });
    expect(getInputParser(rawTool)({ query: 'q', page: 2 })).toEqual({ ok: true, value: { query: 'q', page: 2 } });
  });

  it('names the field, the expected and the received type (Zod)', () => {
    const result = getInputParser(zodTool)({ limit: 'ten', extra: 1, flags: ['a', 2] });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toContain('The required parameter "path" is missing (expected string).');
    expect(message).toContain('The parameter "limit" must be number, but received string.');
    expect(message).toContain('The parameter "flags[1]" must be string, but received number.');
    expect(message).toContain('Unexpected parameter "extra".');
  });

  it('names the field, the expected and the received type (JSON Schema)', () => {
    const result = getInputParser(rawTool)({ page: 0, nested: { on: 'yes' }, other: true });
    const message = result.ok ? '' : result.message;
    expect(message).toContain('The required parameter "query" is missing.');
    expect(message).toContain('The parameter "nested.on" must be boolean, but received string "yes".');
    expect(message).toContain('The parameter "page" must be >= 1 (received number 0).');
    expect(message).toContain('Unexpected parameter "other".');
  });

  it('rejects input that is not an object', () => {
    expect(getInputParser(zodTool)('text')).toEqual({
      ok: false,
      message: 'The parameter input must be object, but received string.',
    });
    expect(getInputParser(rawTool)(null).ok).toBe(false);
  });

  it('compiles once per schema object', () => {
    expect(getInputParser(rawTool)).toBe(getInputParser(rawTool));
    expect(getInputParser(zodTool)).toBe(getInputParser(zodTool));
  });

  it('validates draft 2020-12 and draft-07 schemas, and tolerates an unknown dialect', () => {
    const make = (dialect: string) =>
      defineTool({
        name: 'D',
        inputSchema: jsonSchema({
          $schema: dialect,
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        }),
        prompt: 'x',
        call: async () => '',
      });
    for (const dialect of [
      'https://json-schema.org/draft/2020-12/schema',
      'http://json-schema.org/draft-07/schema#',
      'https://example.com/my-dialect',
    ]) {
      expect(getInputParser(make(dialect))({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
      expect(getInputParser(make(dialect))({ n: 'one' }).ok).toBe(false);
    }
  });

  it('answers every call of a tool whose raw schema cannot compile with a clear error', () => {
    const broken = defineTool({
      name: 'B',
      inputSchema: jsonSchema({ type: 'object', properties: { a: { type: 'nonsense' } } }),
      prompt: 'x',
      call: async () => '',
    });
    const result = getInputParser(broken)({ a: 1 });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toMatch(/input schema is invalid/);
  });
});
