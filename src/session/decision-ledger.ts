import type { DecisionReason } from '../contract/permission.js';
import type { ToolCallStatus } from '../execution/types.js';
import type { HookRunEvent } from '../hooks/hook-registry.js';
import type { SubagentOf } from '../loop/subagent-runner.js';
import type { LoopEvent } from '../loop/types.js';
import type { ToolResultBlock, UserMessage } from '../messages/types.js';
import { resultTextLength, savedOutputPath } from '../results/index.js';
import { SANDBOX_PROGRESS, type SandboxPlacement } from '../contract/sandbox.js';

/** What one hook said about a call, and how long it took. */
export type LedgerHook = {
  readonly event: string;
  readonly hook: string;
  readonly status: string;
  readonly ms: number;
  /** Its decision, reason or message, when it gave one. */
  readonly said?: string;
};

/**
 * One call's path through the plane, as the transcript keeps it (an `event` line of type
 * `tool-decision`): when it was queued, started and ended (epoch ms), its batch (consecutive
 * concurrency-safe calls share one and may run side by side; its times say when it ran), the
 * permission decision with its reason (the rule and its file, the mode, the safety check, the
 * hook), whether a person or host was asked, each hook with its answer
 * and duration, where a command ran (the sandbox profile), how it ended, how large its result was
 * and where a spilled result was saved. A subagent's calls carry its `agent`.
 */
export type LedgerEntry = {
  readonly type: 'tool-decision';
  readonly toolUseId: string;
  readonly tool: string;
  /** The call in one line for people (the command, the path), as the plane showed it when queued. */
  readonly summary?: string;
  /** For a subagent's call: the subagent and the Agent call that started it. */
  readonly agent?: SubagentOf;
  /** The model response that asked for it, counted per agent from 1; `batch` numbers restart in each. */
  readonly step?: number;
  readonly batch?: number;
  readonly queuedAt?: number;
  readonly startedAt?: number;
  readonly endedAt: number;
  readonly durationMs: number;
  readonly status: ToolCallStatus;
  /** The permission engine's decision (an `ask` then went to the approver). */
  readonly decision?: { readonly behavior: 'allow' | 'deny' | 'ask'; readonly reason: DecisionReason };
  /** For a denied call: what refused it (a rule, the mode, a safety check, the approver, no one to ask). */
  readonly deniedBy?: DecisionReason;
  /** The approver (a person, a host's canUseTool) was asked. */
  readonly asked: boolean;
  readonly hooks: readonly LedgerHook[];
  /** Where a command ran: in the sandbox (its profile), outside it, without one, or not at all. */
  readonly sandbox?: SandboxPlacement;
  readonly message?: string;
  /** What the model got: its text's size, whether it is an error, the file a spilled output went to. */
  readonly result: { readonly chars: number; readonly isError: boolean; readonly savedTo?: string };
};

type Draft = {
  tool: string;
  summary?: string;
  agent?: SubagentOf;
  sandbox?: SandboxPlacement;
  step?: number;
  batch?: number;
  queuedAt?: number;
  startedAt?: number;
  decision?: LedgerEntry['decision'];
  asked: boolean;
  hooks: LedgerHook[];
};

function saidBy(run: NonNullable<HookRunEvent['run']>): string | undefined {
  const specific = run.output?.hookSpecificOutput;
  return (
    specific?.permissionDecision ??
    specific?.decision?.behavior ??
    run.output?.decision ??
    (run.status === 'success' ? undefined : run.message)
  );
}

const MAIN = 'main';
/** A summary is kept to a line: the call's input is in the transcript already. */
const SUMMARY_CHARS = 300;

function resultOf(block: ToolResultBlock): LedgerEntry['result'] {
  const savedTo = savedOutputPath(block.content);
  return {
    chars: resultTextLength(block.content),
    isError: block.is_error === true,
    ...(savedTo === undefined ? {} : { savedTo }),
  };
}

/** An entry with the result the model got: the message's budget may have spilled it since the call ended. */
function withFinalResult(entry: LedgerEntry, content: UserMessage['content']): LedgerEntry {
  if (typeof content === 'string') return entry;
  const block = content.find(
    (part): part is ToolResultBlock => part.type === 'tool_result' && part.tool_use_id === entry.toolUseId,
  );
  return block === undefined ? entry : { ...entry, result: resultOf(block) };
}

/**
 * Builds the ledger of a session's calls from the loop's events and the hooks' runs: one entry per
 * call, made when it ends, the entries of a batch written together once its results are in. An
 * entry is a few numbers and strings: the cost per call is a map lookup per event.
 */
export function createDecisionLedger(write: (entries: readonly LedgerEntry[]) => void, now: () => number = Date.now) {
  const open = new Map<string, Draft>();
  // Entries wait for their batch's results (each agent's own), then go in one write.
  const ended = new Map<string, LedgerEntry[]>();
  // Each agent's model responses that asked for tools, so far.
  const steps = new Map<string, number>();
  const hookStarts = new Map<string, number>();
  const draft = (toolUseId: string, tool: string): Draft => {
    let found = open.get(toolUseId);
    if (found === undefined) {
      found = { tool, asked: false, hooks: [] };
      open.set(toolUseId, found);
    } else if (found.tool === '') found.tool = tool;
    return found;
  };
  return {
    /** One event of the main loop, or of a subagent's (`agent`). */
    observe(event: LoopEvent, agent?: SubagentOf): void {
      switch (event.type) {
        case 'tool-call-queue': {
          const call = draft(event.toolUseId, event.toolName);
          call.queuedAt = now();
          call.step = (steps.get(agent?.agentId ?? MAIN) ?? 0) + 1;
          call.summary =
            event.summary.length > SUMMARY_CHARS ? `${event.summary.slice(0, SUMMARY_CHARS)}…` : event.summary;
          if (agent !== undefined) call.agent = agent;
          return;
        }
        case 'tool-call-start': {
          const call = draft(event.toolUseId, event.toolName);
          call.startedAt = now();
          call.batch = event.batch;
          if (agent !== undefined) call.agent = agent;
          return;
        }
        case 'tool-call-progress': {
          if (event.progress.kind !== SANDBOX_PROGRESS) return;
          const call = open.get(event.toolUseId);
          if (call !== undefined) call.sandbox = event.progress.data as SandboxPlacement;
          return;
        }
        case 'permission-request':
          draft(event.toolUseId, event.toolName).asked = true;
          return;
        case 'permission-decision': {
          const call = open.get(event.toolUseId);
          if (call !== undefined) call.decision = { behavior: event.behavior, reason: event.reason };
          return;
        }
        case 'tool-results': {
          const agentId = agent?.agentId ?? MAIN;
          steps.set(agentId, (steps.get(agentId) ?? 0) + 1);
          const entries = ended.get(agentId);
          ended.delete(agentId);
          if (entries !== undefined) write(entries.map((entry) => withFinalResult(entry, event.message.content)));
          return;
        }
        case 'tool-call-end': {
          const { record } = event;
          const call: Draft = open.get(record.toolUseId) ?? { tool: record.toolName, asked: false, hooks: [] };
          open.delete(record.toolUseId);
          const outcome = record.outcome;
          const agentId = call.agent?.agentId ?? MAIN;
          let batch = ended.get(agentId);
          if (batch === undefined) ended.set(agentId, (batch = []));
          batch.push({
            type: 'tool-decision',
            toolUseId: record.toolUseId,
            tool: record.toolName,
            ...(call.summary === undefined ? {} : { summary: call.summary }),
            ...(call.agent === undefined ? {} : { agent: call.agent }),
            ...(call.step === undefined ? {} : { step: call.step }),
            ...(call.batch === undefined ? {} : { batch: call.batch }),
            ...(call.queuedAt === undefined ? {} : { queuedAt: call.queuedAt }),
            ...(call.startedAt === undefined ? {} : { startedAt: call.startedAt }),
            endedAt: now(),
            durationMs: event.durationMs,
            status: outcome.status,
            ...(call.decision === undefined ? {} : { decision: call.decision }),
            // What refused it in the end: the rule or mode, or for an ask, the approver or its absence.
            ...(outcome.status === 'denied' ? { deniedBy: outcome.reason } : {}),
            asked: call.asked,
            hooks: call.hooks,
            ...(call.sandbox === undefined ? {} : { sandbox: call.sandbox }),
            ...('message' in outcome ? { message: outcome.message } : {}),
            result: resultOf(record.result),
          });
          return;
        }
        default:
          return;
      }
    },
    /** A hook starting or ending; those of a tool call (its input names the call) join its entry. */
    hook(event: HookRunEvent): void {
      if (event.toolUseId === undefined) return;
      if (event.run === undefined) {
        // A PreToolUse hook may start before the call is announced as started: its entry opens here.
        draft(event.toolUseId, '');
        hookStarts.set(event.id, now());
        return;
      }
      const started = hookStarts.get(event.id);
      hookStarts.delete(event.id);
      // An async hook ending after its call ended is not part of the call's path.
      const call = open.get(event.toolUseId);
      if (call === undefined) return;
      const said = saidBy(event.run);
      call.hooks.push({
        event: event.event,
        hook: event.hook,
        status: event.run.status,
        ms: started === undefined ? 0 : now() - started,
        ...(said === undefined ? {} : { said }),
      });
    },
  };
}

export type DecisionLedger = ReturnType<typeof createDecisionLedger>;
