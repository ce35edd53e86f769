import type { DecisionReason } from '../../contract/permission.js';
import type { LedgerEntry } from '../../session/index.js';

/** An attribute value as OpenTelemetry takes it. */
export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

/** The final permission decision of a call: it ran (`allow`), was refused (`deny`), or never got one. */
export type FinalDecision = 'allow' | 'deny' | 'none';

/**
 * Who decided, in the words of the reference's `tool_decision` event where it has one: `config`
 * (a rule), `hook`, `user` (a person or the host said yes), `user_reject`, and toolplane's own
 * `mode`, `safety`, `read_only`, `tool`, `no_approver` and `default`.
 */
export type DecisionSource =
  | 'config'
  | 'hook'
  | 'user'
  | 'user_reject'
  | 'mode'
  | 'safety'
  | 'read_only'
  | 'tool'
  | 'no_approver'
  | 'default'
  | 'none';

/** What decided a call, as telemetry reports it: the decision, who made it and the rule with its file. */
export type CallDecision = {
  readonly decision: FinalDecision;
  readonly source: DecisionSource;
  /** The rule that decided, with the file it came from (`Bash(rm:*) @ /p/.toolplane/settings.json:4`). */
  readonly rule?: string;
};

/** How a call was decided: a refusal names what refused it; a call that ran names what let it. */
export function callDecision(entry: LedgerEntry): CallDecision {
  if (entry.status === 'denied' && entry.deniedBy !== undefined)
    return { decision: 'deny', ...sourceOf(entry.deniedBy, 'deny') };
  if (entry.decision === undefined) return { decision: entry.status === 'denied' ? 'deny' : 'none', source: 'none' };
  // An ask that was not refused was answered yes by whoever was asked.
  if (entry.decision.behavior === 'ask')
    return { decision: 'allow', source: entry.asked ? 'user' : sourceOf(entry.decision.reason, 'allow').source };
  return { decision: 'allow', ...sourceOf(entry.decision.reason, 'allow') };
}

function sourceOf(reason: DecisionReason, behavior: 'allow' | 'deny'): Omit<CallDecision, 'decision'> {
  switch (reason.kind) {
    case 'rule':
      return { source: 'config', rule: reason.file === undefined ? reason.rule : `${reason.rule} @ ${reason.file}` };
    case 'hook':
      return { source: 'hook', rule: reason.hook };
    case 'approver':
      return { source: behavior === 'deny' ? 'user_reject' : 'user' };
    case 'mode':
      return { source: 'mode', rule: reason.mode };
    case 'read-only':
      return { source: 'read_only' };
    case 'no-approver':
      return { source: 'no_approver' };
    case 'safety':
    case 'tool':
    case 'default':
      return { source: reason.kind };
  }
}

/** The `gen_ai.tool.type` of a call: MCP tools are extensions, the rest functions. */
function toolType(tool: string): string {
  return tool.startsWith('mcp__') ? 'extension' : 'function';
}

/**
 * A call's span attributes: the GenAI semantic conventions' `execute_tool` attributes, then the
 * decision (`toolplane.permission.*`) and what the ledger knows of it. Nothing of its input or
 * result but sizes: those are added only with `OTEL_LOG_TOOL_DETAILS`.
 */
export function callAttributes(entry: LedgerEntry, sessionId: string): Attributes {
  const decided = callDecision(entry);
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': entry.tool,
    'gen_ai.tool.call.id': entry.toolUseId,
    'gen_ai.tool.type': toolType(entry.tool),
    'gen_ai.conversation.id': sessionId,
    'session.id': sessionId,
    'toolplane.tool.status': entry.status,
    'toolplane.permission.decision': decided.decision,
    'toolplane.permission.source': decided.source,
    'toolplane.permission.asked': entry.asked,
    'toolplane.result.chars': entry.result.chars,
    'toolplane.result.is_error': entry.result.isError,
    'toolplane.duration_ms': entry.durationMs,
  };
  if (decided.rule !== undefined) attributes['toolplane.permission.rule'] = decided.rule;
  if (entry.batch !== undefined) attributes['toolplane.batch'] = entry.batch;
  if (entry.step !== undefined) attributes['toolplane.step'] = entry.step;
  if (entry.result.savedTo !== undefined) attributes['toolplane.result.saved_to'] = entry.result.savedTo;
  if (entry.sandbox !== undefined) attributes['toolplane.sandbox'] = sandboxLabel(entry.sandbox);
  if (entry.agent !== undefined) {
    attributes['gen_ai.agent.id'] = entry.agent.agentId;
    attributes['toolplane.agent.parent_tool_use_id'] = entry.agent.parentToolUseId;
  }
  if (entry.hooks.length > 0) attributes['toolplane.hooks'] = entry.hooks.map((hook) => hook.event).join(',');
  return attributes;
}

function sandboxLabel(placement: NonNullable<LedgerEntry['sandbox']>): string {
  return placement.placement === 'sandboxed' ? `sandboxed:${placement.profile}` : placement.placement;
}
