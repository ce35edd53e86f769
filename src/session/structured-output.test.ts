import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionModeStore } from '../contract/permission-mode-store.js';
import type { JsonSchemaObject } from '../contract/tool.js';
import { createSessionStore } from '../loop/session-store.js';
import type { LoopEvent, QueryResult } from '../loop/types.js';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { scriptedModel, toolTurn } from '../testing/scripted-model.js';
import { createAgentSession } from './create-agent-session.js';
import type { AgentSessionOptions } from './types.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-structured-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(
  turns: Parameters<typeof scriptedModel>[0],
  structuredOutput: AgentSessionOptions['structuredOutput'],
  folder = 'sessions',
): AgentSessionOptions {
  const modes = createPermissionModeStore('default');
  return {
    provider: scriptedModel(turns),
    system: 'You answer in JSON.',
    cwd: root,
    env: {},
    homeDir: root,
    sessions: createSessionStore({ configDir: join(root, folder), cwd: root }),
    tools: [],
    permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd: root, homeDir: root }),
    modes,
    ...(structuredOutput ? { structuredOutput } : {}),
  };
}

async function drain(generator: AsyncGenerator<LoopEvent, QueryResult>): Promise<QueryResult> {
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

const deliver = (id: string, input: unknown) => toolTurn([{ id, name: 'StructuredOutput', input }]);

describe('a session with structured output', () => {
  it("accepts Zod 4's draft 2020-12 schema and enforces its prefixItems and $defs", async () => {
    const Point = z.object({ x: z.number(), y: z.number() }).meta({ id: 'Point' });
    const schema = z.toJSONSchema(z.object({ pair: z.tuple([z.string(), z.number()]), at: Point }));
    const session = await createAgentSession(
      options(
        [
          deliver('swapped', { pair: [1, 'a'], at: { x: 1, y: 2 } }),
          toolTurn([{ id: 'fixed', name: 'StructuredOutput', input: { pair: ['a', 1], at: { x: 1, y: 2 } } }], {
            expect: { errors: ['swapped'] },
          }),
        ],
        { schema: schema as JsonSchemaObject },
      ),
    );
    expect(session.pool().tools.map((tool) => tool.name)).toContain('StructuredOutput');
    const result = await drain(session.submit('where?', new AbortController().signal));
    expect(result.status).toBe('success');
    expect(result.requiredToolInput).toEqual({ pair: ['a', 1], at: { x: 1, y: 2 } });
    await session.close();
  });

  it('keeps two sessions apart whose schemas share an $id', async () => {
    const withId = (properties: Record<string, unknown>): JsonSchemaObject => ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/answer.json',
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    const counts = await createAgentSession(
      options([deliver('c', { count: 3 })], { schema: withId({ count: { type: 'integer' } }) }, 'one'),
    );
    const names = await createAgentSession(
      options([deliver('n', { name: 'three' })], { schema: withId({ name: { type: 'string' } }) }, 'two'),
    );
    const [first, second] = [
      await drain(counts.submit('count', new AbortController().signal)),
      await drain(names.submit('name', new AbortController().signal)),
    ];
    expect([first.status, first.requiredToolInput]).toEqual(['success', { count: 3 }]);
    expect([second.status, second.requiredToolInput]).toEqual(['success', { name: 'three' }]);
    await Promise.all([counts.close(), names.close()]);
  });

  it('ends the run after the configured number of failed calls', async () => {
    const session = await createAgentSession(
      options([deliver('a', { n: 'x' }), deliver('b', { n: 'y' })], {
        schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        maxFailedCalls: 2,
      }),
    );
    const result = await drain(session.submit('n?', new AbortController().signal));
    expect(result.status).toBe('error_max_structured_output_retries');
    expect(result.turns).toBe(2);
    await session.close();
  });

  it('refuses a schema that does not compile, and writes no transcript', async () => {
    const bad = options([], { schema: { type: 'object', properties: { n: { type: 'numeral' } } } });
    await expect(createAgentSession(bad)).rejects.toMatchObject({ code: 'INVALID_TOOL_DEFINITION' });
    await expect(readdir(join(root, 'sessions'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('has no StructuredOutput tool without a schema', async () => {
    const session = await createAgentSession(options([], undefined));
    expect(session.pool().tools.map((tool) => tool.name)).not.toContain('StructuredOutput');
    await session.close();
  });
});
