import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import type { ToolDefinition } from '../../contract/tool.js';
import type { Message } from '../../messages/types.js';
import { deferredToolsAnnouncement } from './deferred-tools-announcement.js';
import { discoveredToolNames } from './discovered-tool-names.js';
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

describe('discoveredToolNames', () => {
  it('collects every tool_reference inside tool results, in order, once', () => {
    const messages: Message[] = [
      { role: 'user', content: 'find me a slack tool' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'slack' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'tool_reference', tool_name: 'mcp__slack__send_message' },
              { type: 'tool_reference', tool_name: 'mcp__slack__list_channels' },
            ],
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'mcp__fake__tool is not a reference' }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't2', content: 'plain text result' },
          {
            type: 'tool_result',
            tool_use_id: 't3',
            content: [{ type: 'tool_reference', tool_name: 'mcp__slack__send_message' }],
          },
          {
            type: 'tool_result',
            tool_use_id: 't4',
            content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
          },
          { type: 'text', text: 'next' },
        ],
      },
    ];
    expect([...discoveredToolNames(messages)]).toEqual([
      'mcp__slack__send_message',
      'mcp__slack__list_channels',
      'mcp__github__create_issue',
    ]);
  });

  it('is empty for a history without references', () => {
    expect(discoveredToolNames([])).toEqual(new Set());
  });
});

describe('deferredToolsAnnouncement', () => {
  it('lists deferred tools by name, sorted, and how to load them', () => {
    const text = deferredToolsAnnouncement(['mcp__b__y', 'mcp__a__x']);
    expect(text).toContain('call ToolSearch to load a tool before calling it');
    expect(text.split('\n').slice(1)).toEqual(['- mcp__a__x', '- mcp__b__y']);
  });

  it('mentions the servers still connecting', () => {
    expect(deferredToolsAnnouncement([], ['jira', 'db'])).toBe(
      'MCP servers still connecting (their tools are not listed yet): jira, db.',
    );
  });

  it('is empty when there is nothing to announce', () => {
    expect(deferredToolsAnnouncement([])).toBe('');
  });
});
