import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSchema } from './compile-json-schema.js';

const Point = z.object({ x: z.number(), y: z.number() }).meta({ id: 'Point' });
// What Zod 4 emits: draft 2020-12, a tuple as prefixItems, a shared schema under $defs.
const zodSchema = z.toJSONSchema(z.object({ pair: z.tuple([z.string(), z.number()]), from: Point, to: Point }));

describe('compileJsonSchema', () => {
  it("validates Zod 4's draft 2020-12 output: prefixItems and $defs references hold", () => {
    expect(zodSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validate = compileJsonSchema(zodSchema as Record<string, unknown>);
    const point = { x: 1, y: 2 };
    expect(validate({ pair: ['a', 1], from: point, to: point })).toBe(true);
    // The draft-07 dialect ignores prefixItems: only the 2020-12 one refuses a swapped tuple.
    expect(validate({ pair: [1, 'a'], from: point, to: point })).toBe(false);
    expect(validate({ pair: ['a', 1], from: point, to: { x: 'left', y: 2 } })).toBe(false);
  });

  it('validates draft-07 schemas (tuple items as an array) and schemas without $schema', () => {
    const tuple = compileJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
    });
    expect(tuple({ pair: ['a', 1] })).toBe(true);
    expect(tuple({ pair: [1, 'a'] })).toBe(false);
    const plain = compileJsonSchema({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(plain({ n: 1 })).toBe(true);
    expect(plain({ n: 1.5 })).toBe(false);
  });

  it('keeps two schemas that share an $id apart, in both dialects, nested ids included', () => {
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#']) {
      const definitions = $schema.includes('2020') ? '$defs' : 'definitions';
      const make = (type: string) => ({
        $schema,
        $id: 'https://example.com/result.json',
        type: 'object',
        properties: { value: { $ref: 'https://example.com/value.json' } },
        required: ['value'],
        [definitions]: { value: { $id: 'https://example.com/value.json', type } },
      });
      const strings = compileJsonSchema(make('string'));
      const numbers = compileJsonSchema(make('number'));
      expect([strings({ value: 'a' }), strings({ value: 1 })]).toEqual([true, false]);
      expect([numbers({ value: 1 }), numbers({ value: 'a' })]).toEqual([true, false]);
    }
  });

  it('throws for a schema that does not compile', () => {
    expect(() => compileJsonSchema({ type: 'object', properties: { a: { type: 'nonsense' } } })).toThrow();
  });
});
