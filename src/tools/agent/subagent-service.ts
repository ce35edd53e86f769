import type { RunStatus } from '../../contract/run-status.js';
import { defineService } from '../../contract/services.js';

/** A request to run a subagent. */
export type SubagentRequest = {
  readonly description: string;
  readonly prompt: string;
  /** A named agent type the host knows (e.g. `general-purpose`); the host decides its tools. */
  readonly agentType: string | undefined;
  /** The caller's agent id (`main` or a subagent's). */
  readonly parentAgentId: string;
  readonly toolUseId: string;
  readonly signal: AbortSignal;
  /** Progress lines for people (what the subagent is doing). */
  readonly onProgress: (message: string) => void;
};

/** What a subagent hands back. */
export type SubagentResult = {
  readonly status: RunStatus;
  /** Its final text. */
  readonly text: string;
  readonly turns: number;
  readonly agentId: string;
};

/** Runs subagents: its own loop, a filtered pool, its own todo list, the same gate chain. */
export type SubagentRunner = {
  readonly agentTypes: readonly { readonly name: string; readonly description: string }[];
  run(request: SubagentRequest): Promise<SubagentResult>;
};

/** The host's subagent runner. */
export const subagentService = defineService<SubagentRunner>('subagent-runner');
