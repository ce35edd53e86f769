import { randomUUID } from 'node:crypto';
import type { ModelProvider } from '../contract/provider.js';
import type { AnyTool, BuiltinKind } from '../contract/tool.js';
import type { ToolPool } from '../pool/tool-pool.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import type { ApiToolCache } from '../schema/to-api-tool.js';
import { createApiToolCache } from '../schema/to-api-tool.js';
import { query } from './query.js';
import { createDeferralTracker, type DeferralStrategy } from './deferral.js';
import type { LoopEvent, QueryOptions } from './types.js';

/** Which subagent an event came from: its id, and the Agent call that started it. */
export type SubagentOf = { readonly agentId: string; readonly parentToolUseId: string };

/** A kind of subagent: its description for the model, and which tools it may use. */
export type SubagentType = {
  readonly name: string;
  readonly description: string;
  /** Tool names it may use (never those of {@link PARENT_ONLY_TOOLS}); undefined: all the others of the parent. */
  readonly tools?: readonly string[];
  /** Extra system prompt for this type. */
  readonly system?: string;
  /** The model this type's requests go to; undefined: the session's. */
  readonly model?: string;
  /** Tool names it may not use, taken from `tools` or, without it, from all of the parent's. */
  readonly disallowedTools?: readonly string[];
  /** Its turns at most; undefined: the runner's limit. */
  readonly maxTurns?: number;
};

/**
 * Built-in tools only the main agent has: subagents do not nest, do not give the run's structured
 * result, and cannot leave plan mode or ask the person (their caller speaks to the person).
 */
export const PARENT_ONLY_TOOLS: ReadonlySet<BuiltinKind> = new Set<BuiltinKind>([
  'Agent',
  'StructuredOutput',
  'ExitPlanMode',
  'AskUserQuestion',
]);

/** The default subagent type. */
export const GENERAL_PURPOSE_AGENT: SubagentType = {
  name: 'general-purpose',
  description:
    'Researches, searches and carries out multi-step tasks with the same tools as you (except starting further agents).',
};

/**
 * Creates the runner behind the Agent tool. Each subagent runs its own `query()` with a pool
 * filtered for its type (never the {@link PARENT_ONLY_TOOLS}, so agents do not nest), its own agent id
 * (so its todo list and read-file state are its own), and the parent's permission gate, hooks and
 * approver: the same gate chain applies inside subagents.
 */
export function createSubagentRunner(options: {
  readonly provider: ModelProvider;
  readonly model?: string;
  readonly system: string;
  readonly getPool: () => ToolPool;
  /** The parent's plane as it is when a subagent starts (its approver and result store may change). */
  readonly getPlane: () => QueryOptions['plane'];
  /** The session's prices, budget and meter, so that a subagent's requests count towards them. */
  readonly getCosts?: () => QueryOptions['costs'];
  readonly deferral?: DeferralStrategy;
  readonly types?: readonly SubagentType[];
  readonly maxTurns?: number;
  /**
   * The services a subagent's calls see; default the parent's. Hosts give each subagent its own
   * read-file state here, so one agent's read never vouches for another agent's write.
   */
  readonly servicesFor?: (agentId: string) => NonNullable<QueryOptions['plane']['services']>;
  /** Each event of a subagent's loop, with its agent id and the Agent call that started it. */
  readonly onEvent?: (event: LoopEvent, agent: SubagentOf) => void;
  /** SubagentStop hooks: called when a subagent ends. */
  readonly onStop?: (info: { readonly agentId: string; readonly status: string }) => Promise<void> | void;
  /** Before a subagent's first request (SubagentStart hooks): text returned joins its brief. */
  readonly onStart?: (info: { readonly agentId: string; readonly agentType: string }) => Promise<readonly string[]>;
}) {
  const types = options.types ?? [GENERAL_PURPOSE_AGENT];
  const caches = new Map<string, ApiToolCache>();
  const filtered = new WeakMap<ToolPool, Map<string, ToolPool>>();

  function poolFor(type: SubagentType): ToolPool {
    const parent = options.getPool();
    let byType = filtered.get(parent);
    if (!byType) {
      byType = new Map();
      filtered.set(parent, byType);
    }
    let pool = byType.get(type.name);
    if (!pool) {
      const allowed = type.tools ? new Set(type.tools) : undefined;
      const disallowed = new Set(type.disallowedTools ?? []);
      const keep = (tool: AnyTool) =>
        !(tool.builtin !== undefined && PARENT_ONLY_TOOLS.has(tool.builtin)) &&
        (!allowed || allowed.has(tool.name)) &&
        !disallowed.has(tool.name);
      pool = assembleToolPool({
        builtins: parent.tools.filter((tool) => tool.origin === 'builtin'),
        external: parent.tools.filter((tool) => tool.origin === 'external'),
        filter: keep,
      });
      byType.set(type.name, pool);
    }
    return pool;
  }

  return {
    agentTypes: types.map((type) => ({ name: type.name, description: type.description })),
    async run(request: {
      readonly description: string;
      readonly prompt: string;
      readonly agentType: string | undefined;
      readonly parentAgentId: string;
      readonly toolUseId: string;
      readonly signal: AbortSignal;
      readonly onProgress: (message: string) => void;
    }) {
      const type = types.find((candidate) => candidate.name === (request.agentType ?? types[0]!.name)) ?? types[0]!;
      const agentId = `agent-${randomUUID().slice(0, 8)}`;
      const model = type.model ?? options.model;
      const costs = options.getCosts?.();
      const context = (await options.onStart?.({ agentId, agentType: type.name })) ?? [];
      let cache = caches.get(type.name);
      if (!cache) {
        cache = createApiToolCache();
        caches.set(type.name, cache);
      }
      const generator = query(
        {
          provider: options.provider,
          ...(model ? { model } : {}),
          system: type.system
            ? `${options.system}\n\n${type.system}`
            : `${options.system}\n\nYou are a subagent: finish the task in the brief, then reply with a complete, self-contained report; it is all the caller will see.`,
          messages: [
            {
              role: 'user',
              content:
                context.length === 0
                  ? request.prompt
                  : [request.prompt, ...context].map((text) => ({ type: 'text' as const, text })),
            },
          ],
          getPool: () => poolFor(type),
          plane: {
            ...options.getPlane(),
            agentId,
            ...(options.servicesFor ? { services: options.servicesFor(agentId) } : {}),
          },
          // Its own tracker: a subagent's history announces and discovers for itself.
          ...(options.deferral ? { deferral: createDeferralTracker(options.deferral) } : {}),
          maxTurns: type.maxTurns ?? options.maxTurns ?? 30,
          ...(costs ? { costs } : {}),
          signal: request.signal,
        },
        cache,
      );
      let step = await generator.next();
      while (!step.done) {
        const event = step.value;
        if (event.type === 'tool-call-start') request.onProgress(`${event.toolName}`);
        options.onEvent?.(event, { agentId, parentToolUseId: request.toolUseId });
        step = await generator.next();
      }
      const result = step.value;
      await options.onStop?.({ agentId, status: result.status });
      return { status: result.status, text: result.text, turns: result.turns, agentId };
    },
  };
}
