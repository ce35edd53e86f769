import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { MAX_TOOL_INPUT_DEPTH, refusedInput } from '../messages/tool-input-shape.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { runToolUses } from './run-tool-uses.js';
import type { ToolRunEvent } from './types.js';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = { next: value };
  return value;
}

function setup() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: 'Store',
    inputSchema: z.object({ value: z.unknown() }),
    prompt: 'x',
    call: async (input) => {
      ran.push(input);
      return 'stored';
    },
  });
  const events: ToolRunEvent[] = [];
  const options = {
    pool: assembleToolPool({ builtins: [tool] }),
    permissions: createFakePermissionGate(),
    cwd: '/tmp',
    sessionId: 's',
    onEvent: (event: ToolRunEvent) => events.push(event),
  };
  return { ran, events, options };
}

describe('an input the plane refuses for its shape', () => {
  it('is answered with an error before the schema parse, a summary or the tool see it', async () => {
    const { ran, events, options } = setup();
    const run = await runToolUses(
      [
        { type: 'tool_use', id: 'deep', name: 'Store', input: { value: nested(10_000) } },
        { type: 'tool_use', id: 'placeholder', name: 'Store', input: refusedInput('reason given earlier') },
        { type: 'tool_use', id: 'unknown-and-deep', name: 'Nope', input: nested(10_000) },
      ],
      options,
    );
    expect(ran).toEqual([]);
    expect(run.records.map((record) => record.outcome.status)).toEqual(['refused', 'refused', 'refused']);
    expect(run.message.content[0]!.content).toContain(`more than ${MAX_TOOL_INPUT_DEPTH} levels deep`);
    expect(run.message.content[1]!.content).toContain('reason given earlier');
    expect(events.filter((event) => event.type === 'tool-call-queue')).toHaveLength(3);
  });

  it('runs an input nested just under the limit', async () => {
    const { ran, options } = setup();
    const run = await runToolUses(
      [{ type: 'tool_use', id: 'ok', name: 'Store', input: { value: nested(MAX_TOOL_INPUT_DEPTH - 1) } }],
      options,
    );
    expect(run.records[0]!.outcome).toEqual({ status: 'success', isError: false });
    expect(ran).toHaveLength(1);
  });
});
