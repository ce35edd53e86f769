import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { sampleTools } from '../testing/sample-tools.js';
import { createApiToolCache, toInputJsonSchema } from './to-api-tool.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./__fixtures__/print-tools-request.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

function samplePool() {
  return assembleToolPool({
    builtins: sampleTools.filter((tool) => tool.origin === 'builtin'),
    external: sampleTools.filter((tool) => tool.origin === 'external'),
  });
}

describe('tools[] for the API', () => {
  it('pins every sample tool definition (it is API, and the prompt cache depends on it)', () => {
    const cache = createApiToolCache();
    for (const definition of cache.toApiTools(samplePool().tools)) {
      expect(definition).toMatchSnapshot(definition.name);
    }
  });

  it('renders each tool once per session and returns the same objects turn after turn', () => {
    let renders = 0;
    const counted = defineTool({
      name: 'Counted',
      inputSchema: z.object({ a: z.string() }),
      prompt: () => {
        renders++;
        return 'counted';
      },
      call: async () => '',
    });
    const cache = createApiToolCache();
    const first = cache.toApiTools([counted]);
    const second = cache.toApiTools([counted]);
    expect(renders).toBe(1);
    expect(second[0]).toBe(first[0]);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('marks deferred tools with defer_loading without changing the base entry', () => {
    const cache = createApiToolCache();
    const tools = samplePool().tools;
    const deferred = cache.toApiTools(tools, new Set(['mcp__sample__get_weather']));
    expect(deferred.find((tool) => tool.name === 'mcp__sample__get_weather')?.defer_loading).toBe(true);
    expect(
      cache.toApiTools(tools).find((tool) => tool.name === 'mcp__sample__get_weather')?.defer_loading,
    ).toBeUndefined();
  });

  it('always sends an object schema, with input-side optionality and no $schema key', () => {
    const schema = toInputJsonSchema(z.object({ a: z.string(), b: z.number().default(3) }));
    expect(schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number', default: 3 } },
      required: ['a'],
    });
    expect(toInputJsonSchema(z.object({ a: z.string() }).strict())).toMatchObject({ additionalProperties: false });
  });

  it('builds byte-identical request tools[] in two separate processes', async () => {
    expect(existsSync(built), 'dist/ is missing: run npm run build').toBe(true);
    const [one, two] = await Promise.all([run(process.execPath, [script]), run(process.execPath, [script])]);
    expect(one.stdout.length).toBeGreaterThan(500);
    expect(one.stdout).toBe(two.stdout);
    const cache = createApiToolCache();
    const here = JSON.stringify({ tools: cache.toApiTools(samplePool().tools, new Set(['mcp__sample__get_weather'])) });
    expect(one.stdout, 'dist/ is stale: run npm run build').toBe(here);
  });
});
