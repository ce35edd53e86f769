import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import type { ToolDefinition } from '../../contract/tool.js';
import { isDeferred } from './is-deferred.js';
import { createToolSearchTool } from './tool-search.js';

function tool(overrides: Partial<ToolDefinition<object, string>>) {
  return defineTool<object, string>({
    name: 'Sample',
    inputSchema: z.object({}),
    prompt: 'x',
    call: async () => 'ok',
    ...overrides,
  });
}

describe('isDeferred', () => {
  const external = tool({ name: 'mcp__db__query', origin: 'external', external: { server: 'db', tool: 'query' } });

  it('defers external tools by default, whatever their number', () => {
    expect(isDeferred(external)).toBe(true);
    expect(isDeferred(external, { deferExternal: false })).toBe(false);
  });

  it('lets a server setting override the default and a tool setting override both', () => {
    expect(isDeferred(external, { servers: new Map([['db', false]]) })).toBe(false);
    const policy = {
      deferExternal: false,
      servers: new Map([['db', false]]),
      tools: new Map([['mcp__db__query', true]]),
    };
    expect(isDeferred(external, policy)).toBe(true);
  });

  it('never defers alwaysLoad tools or ToolSearch', () => {
    const pinned = tool({
      name: 'mcp__db__ping',
      origin: 'external',
      external: { server: 'db', tool: 'ping' },
      alwaysLoad: true,
    });
    expect(isDeferred(pinned, { tools: new Map([['mcp__db__ping', true]]) })).toBe(false);
    expect(isDeferred({ ...createToolSearchTool(), shouldDefer: true })).toBe(false);
  });

  it('defers a host tool that is only named ToolSearch when it asks to be', () => {
    expect(isDeferred(tool({ name: 'ToolSearch', shouldDefer: true }))).toBe(true);
  });

  it('defers built-ins only when they ask to', () => {
    expect(isDeferred(tool({ name: 'Read' }))).toBe(false);
    expect(isDeferred(tool({ name: 'NotebookEdit', shouldDefer: true }))).toBe(true);
    expect(
      isDeferred(tool({ name: 'NotebookEdit', shouldDefer: true }), { tools: new Map([['NotebookEdit', false]]) }),
    ).toBe(false);
  });

  it('treats names like __proto__ as data', () => {
    const odd = tool({ name: '__proto__', shouldDefer: true });
    expect(isDeferred(odd, { tools: new Map() })).toBe(true);
  });
});
