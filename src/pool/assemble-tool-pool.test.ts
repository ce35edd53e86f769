import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { assembleToolPool } from './assemble-tool-pool.js';

const tool = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name, inputSchema: z.object({}), prompt: name, call: async () => name, ...extra });

describe('assembleToolPool', () => {
  it('sorts built-ins then external tools, each by name, and built-ins win name clashes', () => {
    const pool = assembleToolPool({
      builtins: [tool('Read'), tool('Bash'), tool('Grep')],
      external: [
        tool('mcp__z__a', { origin: 'external' }),
        tool('Bash', { origin: 'external' }),
        tool('mcp__a__b', { origin: 'external' }),
      ],
    });
    expect(pool.tools.map((t) => `${t.origin}:${t.name}`)).toEqual([
      'builtin:Bash',
      'builtin:Grep',
      'builtin:Read',
      'external:mcp__a__b',
      'external:mcp__z__a',
    ]);
    expect(pool.find('Bash')?.origin).toBe('builtin');
    expect(pool.dropped).toEqual([{ name: 'Bash', origin: 'external', reason: 'duplicate' }]);
  });

  it('drops tools that a blanket deny removes, that are disabled, or that a filter rejects', () => {
    const pool = assembleToolPool({
      builtins: [
        tool('Read'),
        tool('WebFetch'),
        tool('Off', { isEnabled: () => false }),
        tool('Broken', {
          isEnabled: () => {
            throw new Error('x');
          },
        }),
        tool('Agent'),
      ],
      isBlanketDenied: (name) => name === 'WebFetch',
      filter: (t) => t.name !== 'Agent',
    });
    expect(pool.tools.map((t) => t.name)).toEqual(['Read']);
    expect(pool.dropped.map((d) => `${d.name}:${d.reason}`)).toEqual([
      'WebFetch:denied',
      'Off:disabled',
      'Broken:disabled',
      'Agent:filtered',
    ]);
    expect(pool.find('WebFetch')).toBeUndefined();
  });

  it('finds by alias, but a real name always beats an alias', () => {
    const pool = assembleToolPool({
      builtins: [tool('Agent', { aliases: ['Task'] }), tool('Other', { aliases: ['Agent'] })],
    });
    expect(pool.find('Task')?.name).toBe('Agent');
    expect(pool.find('Agent')?.name).toBe('Agent');
    expect(pool.find('agent')).toBeUndefined();
  });

  it('is stable whatever order the tools come in', () => {
    const names = ['b', 'a', 'c', 'a_b', 'A'];
    const one = assembleToolPool({ builtins: names.map((n) => tool(n)) }).tools.map((t) => t.name);
    const two = assembleToolPool({ builtins: [...names].reverse().map((n) => tool(n)) }).tools.map((t) => t.name);
    expect(one).toEqual(two);
    expect(one).toEqual(['A', 'a', 'a_b', 'b', 'c']);
  });
});
