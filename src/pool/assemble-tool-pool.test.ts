import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { createServices, defineService } from '../contract/services.js';
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

describe('declared services', () => {
  const GREETER = defineService<{ greet(): string }>('greeter');
  const needy = tool('Needy', { services: [GREETER] });

  it('refuse a pool whose tool needs a service the registry lacks, naming both', () => {
    expect(() => assembleToolPool({ builtins: [needy, tool('Other')], services: createServices() })).toThrow(
      expect.objectContaining({
        code: 'MISSING_SERVICE',
        message: expect.stringContaining('Needy needs the service "greeter"'),
      }),
    );
  });

  it('pass once the service is registered, and do not ask for the services of tools left out', () => {
    const services = createServices().set(GREETER, { greet: () => 'hi' });
    expect(assembleToolPool({ builtins: [needy], services }).find('Needy')).toBe(needy);
    const disabled = tool('Needy', { services: [GREETER], isEnabled: () => false });
    expect(assembleToolPool({ builtins: [disabled], services: createServices() }).tools).toEqual([]);
    expect(
      assembleToolPool({ builtins: [needy], services: createServices(), isBlanketDenied: (name) => name === 'Needy' })
        .tools,
    ).toEqual([]);
  });

  it('do not count optional services', () => {
    const relaxed = tool('Relaxed', { optionalServices: [GREETER] });
    expect(assembleToolPool({ builtins: [relaxed], services: createServices() }).tools).toEqual([relaxed]);
  });
});
