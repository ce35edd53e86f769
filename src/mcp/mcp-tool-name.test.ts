import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_NAME_PATTERN } from '../contract/define-tool.js';
import { assignMcpToolNames, hashMcpToolRef, mcpToolName } from './mcp-tool-name.js';

describe('mcpToolName', () => {
  it('joins server and tool as mcp__server__tool', () => {
    expect(mcpToolName({ server: 'github', tool: 'create_issue' })).toBe('mcp__github__create_issue');
  });

  it('replaces characters outside the API pattern with _', () => {
    expect(mcpToolName({ server: 'my.server', tool: 'read file/ä' })).toBe('mcp__my_server__read_file__');
  });

  it('cuts long names to 64 characters ending in a hash of the pair', () => {
    const ref = { server: 'server', tool: 'x'.repeat(100) };
    const name = mcpToolName(ref);
    expect(name).toHaveLength(64);
    expect(name.endsWith(`_${hashMcpToolRef(ref)}`)).toBe(true);
    expect(mcpToolName({ server: 'server', tool: `${'x'.repeat(100)}y` })).not.toBe(name);
  });

  it('gives an empty part a placeholder so the name stays valid', () => {
    expect(mcpToolName({ server: '', tool: '' })).toBe('mcp______');
  });

  it('always matches the API pattern', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (server, tool) => {
        expect(mcpToolName({ server, tool })).toMatch(TOOL_NAME_PATTERN);
      }),
    );
  });
});

describe('assignMcpToolNames', () => {
  it('keeps the first of two clashing names and renames the later one, reporting it', () => {
    const { names, collisions } = assignMcpToolNames([
      { server: 's', tool: 'a.b' },
      { server: 's', tool: 'a_b' },
    ]);
    expect(names[0]).toBe('mcp__s__a_b');
    expect(names[1]).toBe(`mcp__s__a_b_${hashMcpToolRef({ server: 's', tool: 'a_b' })}`);
    expect(collisions).toEqual([
      {
        name: 'mcp__s__a_b',
        kept: { server: 's', tool: 'a.b' },
        renamed: { server: 's', tool: 'a_b' },
        renamedTo: names[1],
      },
    ]);
  });

  it('treats server names that sanitize alike as a collision too', () => {
    const { names, collisions } = assignMcpToolNames([
      { server: 'my.server', tool: 'run' },
      { server: 'my_server', tool: 'run' },
    ]);
    expect(new Set(names).size).toBe(2);
    expect(collisions).toHaveLength(1);
  });

  it('gives the same pair the same name without calling it a collision', () => {
    const { names, collisions } = assignMcpToolNames([
      { server: 's', tool: 't' },
      { server: 's', tool: 't' },
    ]);
    expect(names).toEqual(['mcp__s__t', 'mcp__s__t']);
    expect(collisions).toEqual([]);
  });

  it('gives distinct pairs distinct valid names, whatever they are', () => {
    const part = fc.constantFrom('a', 'a.b', 'a_b', 'a-b', 'a b', 'x'.repeat(70), `${'x'.repeat(70)}.`, '');
    fc.assert(
      fc.property(fc.array(fc.record({ server: part, tool: part }), { maxLength: 12 }), (refs) => {
        const { names } = assignMcpToolNames(refs);
        const byPair = new Map<string, string>();
        refs.forEach((ref, index) => {
          const name = names[index] ?? '';
          expect(name).toMatch(TOOL_NAME_PATTERN);
          const key = `${ref.server}\u0000${ref.tool}`;
          if (byPair.has(key)) expect(byPair.get(key)).toBe(name);
          byPair.set(key, name);
        });
        expect(new Set(byPair.values()).size).toBe(byPair.size);
      }),
    );
  });
});
