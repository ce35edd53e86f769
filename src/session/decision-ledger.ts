import type { DecisionReason } from '../contract/permission.js';
import type { ToolCallStatus } from '../execution/types.js';
import type { HookRunEvent } from '../hooks/hook-registry.js';
import type { LoopEvent } from '../loop/types.js';

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
 * `tool-decision`): when it was queued, started and ended (epoch ms), its batch (calls of one
 * batch ran in parallel), the permission decision with its reason (the rule and its file, the
 * mode, the safety check, the hook), whether a person or host was asked, each hook with its answer
 * and duration, how it ended and how large its result was.
 */
export type LedgerEntry = {
  readonly type: 'tool-decision';
  readonly toolUseId: string;
  readonly tool: string;
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
  readonly message?: string;
  readonly result: { readonly chars: number; readonly isError: boolean };
};

type Draft = {
  tool: string;
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

/**
 * Builds the ledger of a session's calls from the loop's events and the hooks' runs: one entry per
 * call, made when it ends, the entries of a batch written together once its results are in. An
 * entry is a few numbers and strings: the cost per call is a map lookup per event.
 */
export function createDecisionLedger(write: (entries: readonly LedgerEntry[]) => void, now: () => number = Date.now) {
  const open = new Map<string, Draft>();
  // Entries wait for their batch's results, then go in one write.
  let ended: LedgerEntry[] = [];
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
    observe(event: LoopEvent): void {
      switch (event.type) {
        case 'tool-call-queue':
          draft(event.toolUseId, event.toolName).queuedAt = now();
          return;
        case 'tool-call-start': {
          const call = draft(event.toolUseId, event.toolName);
          call.startedAt = now();
          call.batch = event.batch;
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
        case 'tool-results':
          if (ended.length > 0) write(ended);
          ended = [];
          return;
        case 'tool-call-end': {
          const { record } = event;
          const call = open.get(record.toolUseId) ?? { tool: record.toolName, asked: false, hooks: [] };
          open.delete(record.toolUseId);
          const content = record.result.content;
          const chars = typeof content === 'string' ? content.length : JSON.stringify(content ?? '').length;
          const outcome = record.outcome;
          ended.push({
            type: 'tool-decision',
            toolUseId: record.toolUseId,
            tool: record.toolName,
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
            ...('message' in outcome ? { message: outcome.message } : {}),
            result: { chars, isError: record.result.is_error === true },
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
