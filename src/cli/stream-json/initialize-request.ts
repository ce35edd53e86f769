import { agentModel } from '../agents/agent-model.js';
import { z } from 'zod';
import type { SubagentType } from '../../session/index.js';
import { sdkHookMatcherSchema } from './sdk-hooks.js';

const agentDefinitionSchema = z.looseObject({
  description: z.string(),
  prompt: z.string(),
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  model: z.string().optional(),
  maxTurns: z.number().optional(),
});

/**
 * The fields of the Agent SDK's `initialize` request that toolplane reads; the others are
 * accepted and ignored (the SDK adds fields often, and an older CLI must ignore them).
 */
export const initializeRequestSchema = z.looseObject({
  subtype: z.literal('initialize'),
  hooks: z.record(z.string(), z.array(sdkHookMatcherSchema)).optional(),
  sdkMcpServers: z.array(z.string().min(1)).optional(),
  jsonSchema: z.record(z.string(), z.unknown()).optional(),
  systemPrompt: z.union([z.string(), z.array(z.string())]).optional(),
  appendSystemPrompt: z.string().optional(),
  agents: z.record(z.string(), agentDefinitionSchema).optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  managedSettings: z.unknown().optional(),
});

/** An `initialize` request, validated. */
export type InitializeRequest = z.infer<typeof initializeRequestSchema>;

/** The SDK's agent definitions as subagent types; a model alias is named and the session's model used. */
export function agentTypesOf(request: InitializeRequest): {
  readonly types: readonly SubagentType[];
  readonly notices: readonly string[];
} {
  const types: SubagentType[] = [];
  const notices: string[] = [];
  for (const [name, agent] of Object.entries(request.agents ?? {})) {
    const model = agentModel(agent.model);
    types.push({
      name,
      description: agent.description,
      system: agent.prompt,
      ...(agent.tools ? { tools: agent.tools } : {}),
      ...(agent.disallowedTools ? { disallowedTools: agent.disallowedTools } : {}),
      ...(agent.maxTurns !== undefined && Number.isInteger(agent.maxTurns) && agent.maxTurns > 0
        ? { maxTurns: agent.maxTurns }
        : {}),
      ...(model.model === undefined ? {} : { model: model.model }),
    });
    if (model.notice !== undefined) notices.push(`agent ${name}: ${model.notice}`);
  }
  return { types, notices };
}

/**
 * The system prompt the host asked for: the SDK sends a custom prompt as a list of parts, and an
 * empty list or one empty part when it keeps the default (toolplane's own).
 */
export function customSystemPrompt(request: InitializeRequest): string | undefined {
  const parts = typeof request.systemPrompt === 'string' ? [request.systemPrompt] : (request.systemPrompt ?? []);
  const text = parts.join('\n\n');
  return text.trim() === '' ? undefined : text;
}
