import { describe, expect, it } from 'vitest';
import { createServices } from '../contract/services.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { sampleTools } from '../testing/sample-tools.js';
import { createAgentTool } from '../tools/agent/agent-tool.js';
import { subagentService } from '../tools/agent/subagent-service.js';
import { query } from './query.js';
import { createSubagentRunner } from './subagent-runner.js';

describe('subagents', () => {
  it('run their own loop with a filtered pool, through the same gate chain, and return their final text', async () => {
    const provider = createScriptedProvider({
      turns: [
        { content: [{ type: 'tool_use', id: 'ag', name: 'Agent', input: { description: 'look around', prompt: 'Find the weather.' } }] },
        // The subagent's turns: it sees no Agent tool, and its Fail call is denied by the parent's gate.
        { expect: { no_tools: ['Agent'], tools: ['Echo'], includes: ['Find the weather.'] }, content: [{ type: 'tool_use', id: 'sub1', name: 'Fail', input: { message: 'x' } }] },
        { expect: { errors: ['sub1'], includes: ['denied'] }, content: [{ type: 'text', text: 'It is sunny in Oslo.' }] },
        // Back in the parent.
        { expect: { tool_results: ['ag'], errors: [], includes: ['It is sunny in Oslo.'] }, content: [{ type: 'text', text: 'Sunny.' }] },
      ],
    });
    const gate = createFakePermissionGate({
      decide: ({ tool, context }) =>
        tool.name === 'Fail'
          ? { behavior: 'deny', message: `not in ${context.agentId}`, reason: { kind: 'rule', rule: 'Fail', source: 'cli' } }
          : { behavior: 'allow', reason: { kind: 'default', message: 'ok' } },
    });
    const services = createServices();
    const pool = assembleToolPool({ builtins: [...sampleTools.filter((t) => t.origin === 'builtin'), createAgentTool()] });
    const plane = { permissions: gate, cwd: '/tmp', sessionId: 's', services };
    const stops: string[] = [];
    const runner = createSubagentRunner({ provider, system: 'sys', getPool: () => pool, getPlane: () => plane, onStop: ({ status }) => void stops.push(status) });
    services.set(subagentService, runner);

    const generator = query({ provider, system: 'sys', messages: [{ role: 'user', content: 'weather?' }], getPool: () => pool, plane });
    let step = await generator.next();
    while (!step.done) step = await generator.next();
    expect(step.value.status).toBe('success');
    expect(step.value.text).toBe('Sunny.');
    expect(stops).toEqual(['success']);
    expect(provider.requests).toHaveLength(4);
  });
});
