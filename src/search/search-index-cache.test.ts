import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { jsonSchema } from '../contract/tool.js';
import { describeToolForSearch } from './describe-tool.js';
import { createSearchIndexCache } from './search-index-cache.js';
import { searchTools } from './search-tools.js';

const builtin = defineTool({
  name: 'TodoWrite',
  inputSchema: z.object({ todos: z.array(z.string()).describe('The updated checklist') }),
  prompt: () => 'Keeps the task list.',
  searchHint: 'plan tasks',
  call: async () => 'ok',
});
const external = defineTool({
  name: 'mcp__jira__create_ticket',
  inputSchema: jsonSchema({ type: 'object', properties: { summary: { type: 'string', description: 'One line' } } }),
  prompt: 'Creates a ticket.',
  origin: 'external',
  external: { server: 'jira', tool: 'create_ticket' },
  call: async () => 'ok',
});

describe('describeToolForSearch', () => {
  it('renders the prompt and converts a Zod schema to JSON Schema', () => {
    const descriptor = describeToolForSearch(builtin);
    expect(descriptor).toMatchObject({
      name: 'TodoWrite',
      description: 'Keeps the task list.',
      searchHint: 'plan tasks',
    });
    expect(JSON.stringify(descriptor.inputSchema)).toContain('The updated checklist');
  });

  it('keeps a raw JSON Schema and the server of an external tool', () => {
    expect(describeToolForSearch(external)).toMatchObject({
      server: 'jira',
      toolName: 'create_ticket',
      inputSchema: { properties: { summary: { description: 'One line' } } },
    });
  });

  it('still describes a tool whose prompt throws', () => {
    const broken = defineTool({
      name: 'Broken',
      inputSchema: z.object({}),
      prompt: () => {
        throw new Error('no');
      },
      call: async () => 'ok',
    });
    expect(describeToolForSearch(broken).description).toBe('');
  });
});

describe('createSearchIndexCache', () => {
  it('reuses the index while the deferred tools are the same objects', () => {
    const cache = createSearchIndexCache();
    const first = cache.indexFor([builtin, external]);
    expect(cache.indexFor([builtin, external])).toBe(first);
    expect(searchTools(first, 'ticket', { maxResults: 5 }).matches).toEqual(['mcp__jira__create_ticket']);
  });

  it('rebuilds when a tool is added, removed or replaced', () => {
    const cache = createSearchIndexCache();
    const first = cache.indexFor([builtin]);
    const second = cache.indexFor([builtin, external]);
    expect(second).not.toBe(first);
    expect(searchTools(second, 'ticket', { maxResults: 5 }).matches).toEqual(['mcp__jira__create_ticket']);
    const replaced = defineTool({ ...external, prompt: 'Opens an incident.' } as Parameters<typeof defineTool>[0]);
    const third = cache.indexFor([builtin, replaced]);
    expect(third).not.toBe(second);
    expect(searchTools(third, 'incident', { maxResults: 5 }).matches).toEqual(['mcp__jira__create_ticket']);
    expect(cache.indexFor([])).not.toBe(third);
  });
});
