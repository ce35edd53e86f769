import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { createServices } from '../../contract/services.js';
import { jsonSchema, type AnyTool, type ToolCallContext } from '../../contract/tool.js';
import { deferredToolsService, type DeferredToolsState } from './deferred-tools-service.js';
import { createToolSearchTool, mapToolSearchResult, type ToolSearchOutput } from './tool-search.js';
import { isDeferred } from './is-deferred.js';
import { createDeferredToolSearch } from '../../search/create-deferred-tool-search.js';

function mcpTool(server: string, tool: string, description: string): AnyTool {
  return defineTool({
    name: `mcp__${server}__${tool}`,
    inputSchema: jsonSchema({ type: 'object', properties: {} }),
    prompt: description,
    origin: 'external',
    external: { server, tool },
    call: async () => 'ok',
  });
}

const deferred = [
  mcpTool('slack', 'send_message', 'Send a message to a Slack channel.'),
  mcpTool('slack', 'list_channels', 'List the channels of the workspace.'),
  mcpTool('github', 'create_issue', 'Create an issue in a GitHub repository.'),
];

function contextWith(state: DeferredToolsState | undefined): ToolCallContext {
  const services = createServices();
  if (state !== undefined) services.set(deferredToolsService, () => state);
  return {
    toolUseId: 'toolu_1',
    signal: new AbortController().signal,
    cwd: '/',
    sessionId: 's',
    agentId: 'main',
    permissionMode: 'default',
    services,
    reportProgress: () => {},
  };
}

const baseState: DeferredToolsState = {
  deferredTools: deferred,
  loadedToolNames: ['Read', 'Edit'],
  pendingServers: [],
  failedServers: [],
  search: createDeferredToolSearch(),
};

describe('ToolSearch', () => {
  const tool = createToolSearchTool();

  it('is read-only, concurrency-safe, always loaded and never deferred', () => {
    const input = { query: 'x' };
    expect(tool.name).toBe('ToolSearch');
    expect(tool.isReadOnly(input)).toBe(true);
    expect(tool.isConcurrencySafe(input)).toBe(true);
    expect(tool.alwaysLoad).toBe(true);
    expect(isDeferred(tool, { tools: new Map([['ToolSearch', true]]) })).toBe(false);
  });

  it('answers keywords with tool_reference blocks, best first, up to max_results', async () => {
    const output = await tool.call({ query: 'list slack channels', max_results: 1 }, contextWith(baseState));
    expect(output.matches).toEqual(['mcp__slack__list_channels']);
    expect(output.totalDeferredTools).toBe(3);
    expect(tool.mapResult(output, 'toolu_1')).toEqual({
      content: [{ type: 'tool_reference', tool_name: 'mcp__slack__list_channels' }],
    });
  });

  it('returns five matches by default', async () => {
    const many = Array.from({ length: 8 }, (_, i) => mcpTool('files', `tool_${i}`, 'Reads files.'));
    const output = await tool.call({ query: 'files' }, contextWith({ ...baseState, deferredTools: many }));
    expect(output.matches).toHaveLength(5);
  });

  it('treats select: of a loaded tool as a harmless no-op and reports unknown names', async () => {
    const output = await tool.call({ query: 'select:mcp__github__create_issue,Read,Nope' }, contextWith(baseState));
    expect(output.matches).toEqual(['mcp__github__create_issue', 'Read']);
    expect(output.unknownNames).toEqual(['Nope']);
  });

  it('says what was searched when nothing matched', async () => {
    const output = await tool.call({ query: 'kubernetes pods' }, contextWith(baseState));
    expect(output.matches).toEqual([]);
    const mapped = tool.mapResult(output, 'toolu_1');
    expect(mapped.content).toBe(
      'No deferred tools matched "kubernetes pods" (searched 3). Try other keywords, fewer required (+) words, or "select:<name>" for a name from the deferred tools list.',
    );
  });

  it('names the servers still connecting and those that failed, with why', async () => {
    const state: DeferredToolsState = {
      ...baseState,
      pendingServers: ['jira'],
      failedServers: [{ name: 'db', reason: 'spawn psql-mcp ENOENT' }],
    };
    const output = await tool.call({ query: 'ticket' }, contextWith(state));
    const text = tool.mapResult(output, 'toolu_1').content as string;
    expect(text).toContain('MCP servers still connecting: jira.');
    expect(text).toContain('MCP server db failed to connect: spawn psql-mcp ENOENT.');
  });

  it('waits for servers still connecting when nothing matched, then searches again', async () => {
    let connected = false;
    const jira = mcpTool('jira', 'create_ticket', 'Creates a ticket.');
    const services = createServices().set(deferredToolsService, () => ({
      ...baseState,
      deferredTools: connected ? [...deferred, jira] : deferred,
      pendingServers: connected ? [] : ['jira'],
      waitForPendingServers: async () => {
        connected = true;
      },
    }));
    const output = await tool.call(
      { query: 'select:mcp__jira__create_ticket' },
      { ...contextWith(undefined), services },
    );
    expect(output.matches).toEqual(['mcp__jira__create_ticket']);
    expect(output.pendingServers).toEqual([]);
  });

  it('explains unknown select: names', () => {
    const output: ToolSearchOutput = {
      query: 'select:Nope',
      matches: [],
      totalDeferredTools: 3,
      unknownNames: ['Nope'],
      pendingServers: [],
      failedServers: [],
    };
    expect(mapToolSearchResult(output).content).toMatch(/^No tool named Nope \(searched 3 deferred tools\)/);
  });

  it('works without the service: nothing to search', async () => {
    const output = await tool.call({ query: 'slack' }, contextWith(undefined));
    expect(tool.mapResult(output, 'toolu_1').content).toBe('No deferred tools are available to search.');
  });

  it('sees tools that join the deferred set between calls', async () => {
    let state = baseState;
    const services = createServices().set(deferredToolsService, () => state);
    const context = { ...contextWith(undefined), services };
    expect((await tool.call({ query: 'ticket' }, context)).matches).toEqual([]);
    state = { ...baseState, deferredTools: [...deferred, mcpTool('jira', 'create_ticket', 'Creates a ticket.')] };
    expect((await tool.call({ query: 'ticket' }, context)).matches).toEqual(['mcp__jira__create_ticket']);
  });

  it('validates its input', () => {
    const schema = tool.inputSchema as z.ZodType;
    expect(schema.safeParse({ query: '' }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', max_results: 0 }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', extra: 1 }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', max_results: 3 }).success).toBe(true);
  });

  it('keeps its model-facing definition stable', () => {
    expect({
      name: tool.name,
      prompt: tool.prompt,
      schema: z.toJSONSchema(tool.inputSchema as z.ZodType),
    }).toMatchSnapshot();
  });
});
