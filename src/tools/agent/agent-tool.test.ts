import { describe, expect, it } from 'vitest';
import { createServices } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { createCallContext } from '../../testing/call-context.js';
import { createAgentTool } from './agent-tool.js';
import { subagentService, type SubagentRequest } from './subagent-service.js';

const context = (services = createServices()): ToolCallContext => createCallContext({ services, toolUseId: 't1' });

describe('Agent tool', () => {
  it('refuses when the host has no subagent runner, or the type is unknown', async () => {
    const tool = createAgentTool();
    expect(await tool.validateInput({ description: 'd', prompt: 'p' }, context())).toEqual({
      ok: false,
      message: 'Subagents are not available in this session.',
    });
    const services = createServices().set(subagentService, {
      agentTypes: [{ name: 'explore', description: 'x' }],
      run: async () => ({ status: 'success', text: '', turns: 1, agentId: 'a' }),
    });
    expect(
      await tool.validateInput({ description: 'd', prompt: 'p', subagent_type: 'other' }, context(services)),
    ).toMatchObject({ ok: false, message: expect.stringContaining('Use one of: explore') });
  });

  it('passes the brief to the runner and maps its final text; an early stop is an error result', async () => {
    const seen: SubagentRequest[] = [];
    const services = createServices().set(subagentService, {
      agentTypes: [],
      run: async (request) => {
        seen.push(request);
        request.onProgress('Grep');
        return request.prompt === 'fail'
          ? { status: 'error_max_turns', text: 'partial', turns: 30, agentId: 'a' }
          : { status: 'success', text: 'report', turns: 2, agentId: 'a' };
      },
    });
    const tool = createAgentTool();
    const output = await tool.call({ description: 'd', prompt: 'go' }, context(services));
    expect(tool.mapResult(output, 't1')).toEqual({ content: 'report' });
    expect(seen[0]).toMatchObject({ description: 'd', prompt: 'go', parentAgentId: 'main', toolUseId: 't1' });
    const failed = await tool.call({ description: 'd', prompt: 'fail' }, context(services));
    expect(tool.mapResult(failed, 't1')).toEqual({
      content: 'The subagent stopped early (error_max_turns) after 30 turns. Its last message:\npartial',
      isError: true,
    });
  });
});
