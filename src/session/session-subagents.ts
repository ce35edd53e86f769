import type { ModelProvider } from '../contract/provider.js';
import type { ServiceRegistry } from '../contract/services.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';
import { createSubagentRunner, type SubagentType } from '../loop/subagent-runner.js';
import type { QueryOptions } from '../loop/types.js';
import { subagentService } from '../tools/agent/subagent-service.js';
import { createFileStateStore, fileStateService } from '../tools/file-state/file-state-store.js';
import type { DecisionLedger } from './decision-ledger.js';
import type { SessionTools } from './session-tools.js';

/**
 * Registers the runner behind the Agent tool: subagents share the session's plane (gate chain,
 * hooks, approver, as they are when each starts) and get their own read-file state; SubagentStart
 * hooks run before each begins (their context joins its brief) and SubagentStop hooks when it ends.
 * Their calls are recorded in the session's decision ledger with the agent and the Agent call.
 */
export function registerSubagents(options: {
  readonly services: ServiceRegistry;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system: string;
  readonly tools: SessionTools;
  readonly plane: () => QueryOptions['plane'];
  readonly agentTypes: readonly SubagentType[];
  readonly hooks: HookPlane;
  readonly hookSession: () => HookSession;
  /** Subagents' calls go into the session's decision ledger, marked with their agent. */
  readonly ledger: DecisionLedger;
  /** The session's prices, budget and meter: a subagent's requests count towards both. */
  readonly costs: () => QueryOptions['costs'];
  readonly signal: AbortSignal;
}): void {
  const { services, hooks } = options;
  services.set(
    subagentService,
    createSubagentRunner({
      provider: options.provider,
      model: options.model,
      system: options.system,
      getPool: options.tools.pool,
      getPlane: options.plane,
      getCosts: options.costs,
      deferral: options.tools.deferral.strategy,
      types: options.agentTypes,
      servicesFor: () => services.child().set(fileStateService, createFileStateStore()),
      onEvent: (event, agent) => options.ledger.observe(event, agent),
      onStart: async ({ agentId, agentType }) =>
        (
          await hooks.subagentStart({
            session: { ...options.hookSession(), agentId },
            signal: options.signal,
            agentId,
            agentType,
          })
        ).additionalContext,
      onStop: async ({ agentId }) => {
        await hooks.subagentStop({
          session: { ...options.hookSession(), agentId },
          signal: options.signal,
          stopHookActive: false,
        });
      },
    }),
  );
}
