import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { createServices } from '../contract/services.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import { createFakePermissionGate } from '../testing/fake-gates.js';
import { sampleTools } from '../testing/sample-tools.js';
import { createAgentTool } from '../tools/agent/agent-tool.js';
import { subagentService } from '../tools/agent/subagent-service.js';
import { query } from './query.js';
import { createSubagentRunner, GENERAL_PURPOSE_AGENT } from './subagent-runner.js';
import { createAskUserQuestionTool } from '../tools/ask-user-question/ask-user-question-tool.js';
import { createEnterPlanModeTool, createExitPlanModeTool } from '../tools/plan-mode/plan-mode-tools.js';
import { createStructuredOutputTool } from '../tools/structured-output/structured-output-tool.js';

/** Runs the main agent's query for one prompt to its end and returns its result. */
async function runParent(options: {
  readonly provider: Parameters<typeof query>[0]['provider'];
  readonly pool: ReturnType<typeof assembleToolPool>;
  readonly plane: Parameters<typeof query>[0]['plane'];
  readonly prompt: string;
}) {
  const { provider, pool, plane } = options;
  const generator = query({
    provider,
    system: 'sys',
    messages: [{ role: 'user', content: options.prompt }],
    getPool: () => pool,
    plane,
  });
  let step = await generator.next();
  while (!step.done) step = await generator.next();
  return step.value;
}

describe('subagents', () => {
  it('run their own loop with a filtered pool, through the same gate chain, and return their final text', async () => {
    const provider = createScriptedProvider({
      turns: [
        {
          content: [
            {
              type: 'tool_use',
              id: 'ag',
              name: 'Agent',
              input: { description: 'look around', prompt: 'Find the weather.' },
            },
          ],
        },
        // The subagent's turns: it sees no Agent tool, and its Fail call is denied by the parent's gate.
        {
          expect: { no_tools: ['Agent'], tools: ['Echo'], includes: ['Find the weather.'] },
          content: [{ type: 'tool_use', id: 'sub1', name: 'Fail', input: { message: 'x' } }],
        },
        {
          expect: { errors: ['sub1'], includes: ['denied'] },
          content: [{ type: 'text', text: 'It is sunny in Oslo.' }],
        },
        // Back in the parent.
        {
          expect: { tool_results: ['ag'], errors: [], includes: ['It is sunny in Oslo.'] },
          content: [{ type: 'text', text: 'Sunny.' }],
        },
      ],
    });
    const gate = createFakePermissionGate({
      decide: ({ tool, context }) =>
        tool.name === 'Fail'
          ? {
              behavior: 'deny',
              message: `not in ${context.agentId}`,
              reason: { kind: 'rule', rule: 'Fail', source: 'cli' },
            }
          : { behavior: 'allow', reason: { kind: 'default', message: 'ok' } },
    });
    const services = createServices();
    const pool = assembleToolPool({
      builtins: [...sampleTools.filter((t) => t.origin === 'builtin'), createAgentTool()],
    });
    const plane = { permissions: gate, cwd: '/tmp', sessionId: 's', services };
    const stops: string[] = [];
    const runner = createSubagentRunner({
      provider,
      system: 'sys',
      getPool: () => pool,
      getPlane: () => plane,
      onStop: ({ status }) => void stops.push(status),
    });
    services.set(subagentService, runner);

    const step = { value: await runParent({ provider, pool, plane, prompt: 'weather?' }) };
    expect(step.value.status).toBe('success');
    expect(step.value.text).toBe('Sunny.');
    expect(stops).toEqual(['success']);
    expect(provider.requests).toHaveLength(4);
  });

  it('never get the tools only the main agent has, and a type may name its own tools', async () => {
    const parentOnly = ['Agent', 'StructuredOutput', 'ExitPlanMode', 'AskUserQuestion'];
    const provider = createScriptedProvider({
      turns: [
        { content: [{ type: 'tool_use', id: 'a1', name: 'Agent', input: { description: 'general', prompt: 'one' } }] },
        {
          expect: { no_tools: parentOnly, tools: ['Echo', 'EnterPlanMode'] },
          content: [{ type: 'text', text: 'general done' }],
        },
        {
          content: [
            {
              type: 'tool_use',
              id: 'a2',
              name: 'Agent',
              input: { description: 'narrow', prompt: 'two', subagent_type: 'echoer' },
            },
          ],
        },
        {
          expect: { tools: ['Echo'], no_tools: [...parentOnly, 'EnterPlanMode'] },
          content: [{ type: 'text', text: 'narrow done' }],
        },
        { content: [{ type: 'text', text: 'all done' }] },
      ],
    });
    const tools = [
      ...sampleTools.filter((t) => t.origin === 'builtin'),
      createAgentTool(),
      createStructuredOutputTool({ type: 'object', properties: {} }),
      createEnterPlanModeTool(),
      createExitPlanModeTool(),
      createAskUserQuestionTool(),
    ];
    const pool = assembleToolPool({ builtins: tools });
    const services = createServices();
    const plane = { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's', services };
    const types = [GENERAL_PURPOSE_AGENT, { name: 'echoer', description: 'only echoes', tools: ['Echo', 'Agent'] }];
    services.set(
      subagentService,
      createSubagentRunner({ provider, system: 'sys', getPool: () => pool, getPlane: () => plane, types }),
    );
    const step = { value: await runParent({ provider, pool, plane, prompt: 'go' }) };
    expect(step.value.text).toBe('all done');
    // Each subagent ran to its final text: a request whose tools broke the expectations would fail it.
    const history = JSON.stringify(step.value.messages);
    expect(history).toContain('general done');
    expect(history).toContain('narrow done');
    expect(provider.requests).toHaveLength(5);
  });
  it('keep a host tool that is only named like a parent-only built-in', async () => {
    const provider = createScriptedProvider({
      turns: [
        { content: [{ type: 'tool_use', id: 'a1', name: 'Agent', input: { description: 'd', prompt: 'one' } }] },
        { expect: { tools: ['AskUserQuestion'], no_tools: ['Agent'] }, content: [{ type: 'text', text: 'sub done' }] },
        { content: [{ type: 'text', text: 'all done' }] },
      ],
    });
    const hostAsk = defineTool({
      name: 'AskUserQuestion',
      inputSchema: z.object({}),
      prompt: "Looks the answer up in the team's wiki.",
      call: async () => 'from the wiki',
    });
    const pool = assembleToolPool({ builtins: [createAgentTool(), hostAsk] });
    const services = createServices();
    const plane = { permissions: createFakePermissionGate(), cwd: '/tmp', sessionId: 's', services };
    services.set(
      subagentService,
      createSubagentRunner({ provider, system: 'sys', getPool: () => pool, getPlane: () => plane }),
    );
    const step = { value: await runParent({ provider, pool, plane, prompt: 'go' }) };
    expect(JSON.stringify(step.value.messages)).toContain('sub done');
    expect(provider.requests).toHaveLength(3);
  });
});
