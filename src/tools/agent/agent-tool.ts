import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { Tool } from '../../contract/tool.js';
import { agentPrompt } from './prompt.js';
import { subagentService, type SubagentResult } from './subagent-service.js';

const inputSchema = z.strictObject({
  description: z.string().min(1).max(200).describe('A short (3-5 word) description of the task, shown to the user.'),
  prompt: z.string().min(1).describe('The complete brief for the subagent.'),
  subagent_type: z.string().optional().describe('The kind of agent to start; default general-purpose.'),
});

export type AgentInput = z.infer<typeof inputSchema>;

/**
 * The Agent tool: runs a subagent through the host's {@link subagentService} and returns its
 * final text. The subagent runs its own loop through the same gate chain (hooks and permissions
 * apply inside it too). Read-only by itself; what the subagent does is checked call by call.
 */
export function createAgentTool(
  options: { readonly agentTypes?: readonly { readonly name: string; readonly description: string }[] } = {},
): Tool<AgentInput, SubagentResult> {
  return defineBuiltinTool('Agent', {
    name: 'Agent',
    services: [subagentService],
    aliases: ['Task'],
    inputSchema,
    prompt: agentPrompt(options.agentTypes ?? []),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Agent',
    describeInput: (input) => `${input.subagent_type ?? 'agent'}: ${input.description}`,
    // Starting a subagent changes nothing by itself; each of its calls passes the gate chain.
    // Deny and ask rules (`Agent`, `Agent(type)`) are checked before this.
    checkPermissions: () => ({
      behavior: 'allow',
      reason: { kind: 'tool', message: "a subagent's calls are checked one by one" },
    }),
    validateInput: (input, context) => {
      const runner = context.services.get(subagentService);
      if (!runner) return { ok: false, message: 'Subagents are not available in this session.' };
      if (
        input.subagent_type !== undefined &&
        runner.agentTypes.length > 0 &&
        !runner.agentTypes.some((type) => type.name === input.subagent_type)
      ) {
        return {
          ok: false,
          message: `Unknown subagent_type "${input.subagent_type}". Use one of: ${runner.agentTypes.map((type) => type.name).join(', ')}.`,
        };
      }
      return { ok: true };
    },
    async call(input, context) {
      const runner = context.services.get(subagentService);
      if (!runner) throw new Error('Subagents are not available in this session.');
      return runner.run({
        description: input.description,
        prompt: input.prompt,
        agentType: input.subagent_type,
        parentAgentId: context.agentId,
        toolUseId: context.toolUseId,
        signal: context.signal,
        onProgress: (message) => context.reportProgress({ kind: 'subagent', message }),
      });
    },
    mapResult: (output) => {
      const text = output.text.trim() || '(the subagent ended without a final message)';
      if (output.status === 'success') return { content: text };
      return {
        content: `The subagent stopped early (${output.status}) after ${output.turns} turns. Its last message:\n${text}`,
        isError: true,
      };
    },
  });
}
