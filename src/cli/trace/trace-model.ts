import { describeReason, type DecisionReason } from '../../contract/permission.js';
import type { LedgerEntry, LedgerHook } from '../../session/index.js';

/** How a call ended, in the few classes the page colours and filters by. */
export type TraceOutcome = 'ok' | 'error' | 'denied' | 'refused' | 'stopped';

/** One call as the trace page shows it. */
export type TraceCall = {
  readonly toolUseId: string;
  readonly tool: string;
  readonly summary: string;
  /** For a subagent's call, its agent id and the Agent call that started it. */
  readonly agent?: { readonly agentId: string; readonly parentToolUseId: string };
  /** The model response that asked for it (per agent), and its batch there: a batch ran in parallel. */
  readonly step?: number;
  readonly batch?: number;
  /** Epoch ms, from the ledger (absent in transcripts without one). */
  readonly queuedAt?: number;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly durationMs?: number;
  /** The ledger's status (`success`, `denied`, `hook-blocked`, …), or `ran` without a ledger. */
  readonly status: string;
  readonly outcome: TraceOutcome;
  /** The gate that decided (`rule`, `mode`, `hook`, `person`, …) and why, in words. */
  readonly gate: string;
  readonly why: string;
  readonly asked: boolean;
  readonly hooks: readonly LedgerHook[];
  /** Where a command ran: `sandboxed (workspace, network)`, `outside the sandbox`, … */
  readonly sandbox?: string;
  readonly message?: string;
  /** The input as the model sent it, pretty-printed and capped; absent for a subagent's call. */
  readonly input?: string;
  readonly result: {
    readonly chars?: number;
    readonly isError: boolean;
    readonly savedTo?: string;
    /** The start of what the model got. */
    readonly preview?: string;
  };
};

/** One turn: the person's prompt and the calls made until the answer. */
export type TraceTurn = { readonly prompt: string; readonly at?: string; readonly calls: readonly TraceCall[] };

/** A session's transcript read for its trace page. */
export type TraceModel = {
  readonly sessionId: string;
  readonly cwd: string;
  readonly createdAt?: string;
  readonly turns: readonly TraceTurn[];
  /** Whether the transcript had a decision ledger (toolplane records one since it has one). */
  readonly hasLedger: boolean;
  /** Lines that could not be read. */
  readonly skippedLines: number;
};

const INPUT_CHARS = 20_000;
const PREVIEW_CHARS = 2_000;

type Block = Record<string, unknown>;
type DraftTurn = { prompt: string; at?: string; ids: string[] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function capped(value: string, limit: number): string {
  return value.length > limit ? `${value.slice(0, limit)}\n… (${value.length - limit} more characters)` : value;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      isRecord(part) ? (part['type'] === 'text' ? text(part['text']) : `[${text(part['type'])}]`) : '',
    )
    .join('\n');
}

const GATE_OF_REASON: Record<DecisionReason['kind'], string> = {
  rule: 'rule',
  mode: 'mode',
  hook: 'hook',
  tool: 'tool check',
  safety: 'safety check',
  'read-only': 'read-only check',
  approver: 'person',
  'no-approver': 'no one to ask',
  default: 'default',
};

function reasonOf(value: unknown): DecisionReason | undefined {
  return isRecord(value) && typeof value['kind'] === 'string' && value['kind'] in GATE_OF_REASON
    ? (value as DecisionReason)
    : undefined;
}

/** A reason in words, after its gate's name: `Bash(curl:*) from /p/.claude/settings.json`. */
function whyOf(reason: DecisionReason): string {
  switch (reason.kind) {
    case 'rule':
      return `${reason.rule} from ${reason.file ?? reason.source}`;
    case 'mode':
      return reason.mode;
    case 'hook':
      return reason.message ? `${reason.hook}: ${reason.message}` : reason.hook;
    case 'approver':
      return reason.message ?? 'refused';
    default:
      return describeReason(reason);
  }
}

/** The gate that decided a call and why, from its ledger entry. */
function gateOf(entry: LedgerEntry): { gate: string; why: string } {
  switch (entry.status) {
    case 'unknown-tool':
      return { gate: 'lookup', why: `no tool named ${entry.tool}` };
    case 'invalid-input':
      return { gate: 'input', why: entry.message ?? 'the input did not match the schema' };
    case 'validation-failed':
      return { gate: 'validation', why: entry.message ?? 'the tool refused the input' };
    case 'refused':
      return { gate: 'plane', why: entry.message ?? 'refused before reading its input' };
    case 'hook-blocked': {
      const hook = entry.hooks.find((each) => each.said === 'deny' || each.said === 'block') ?? entry.hooks[0];
      return { gate: 'hook', why: `${hook?.hook ?? 'a hook'}: ${entry.message ?? 'blocked'}` };
    }
    default:
      break;
  }
  const denied = entry.status === 'denied';
  const reason = reasonOf(denied ? (entry.deniedBy ?? entry.decision?.reason) : entry.decision?.reason);
  if (reason === undefined) return { gate: entry.asked ? 'person' : 'unknown', why: 'no decision recorded' };
  // An ask a person allowed: the person decided; the rule, mode or check only asked.
  if (entry.asked && !denied) return { gate: 'person', why: `allowed when asked (${whyOf(reason)})` };
  return { gate: GATE_OF_REASON[reason.kind], why: whyOf(reason) };
}

function outcomeOf(status: string, isError: boolean): TraceOutcome {
  if (status === 'denied' || status === 'hook-blocked') return 'denied';
  if (status === 'unknown-tool' || status === 'invalid-input' || status === 'validation-failed' || status === 'refused')
    return 'refused';
  if (status === 'cancelled' || status === 'aborted') return 'stopped';
  if (status === 'failed' || status === 'timeout' || isError) return 'error';
  return 'ok';
}

function sandboxText(value: LedgerEntry['sandbox']): string | undefined {
  if (value === undefined) return undefined;
  switch (value.placement) {
    case 'sandboxed':
      return `sandboxed (${value.profile}${value.network ? ', network' : ', no network'})`;
    case 'outside':
      return 'outside the sandbox, approved by a person';
    case 'plain':
      return 'no sandbox';
    case 'refused':
      return 'not run: the sandbox refused it';
  }
}

type Use = { tool: string; input: unknown };
type Result = { text: string; isError: boolean };

function callOf(
  id: string,
  use: Use | undefined,
  entry: LedgerEntry | undefined,
  result: Result | undefined,
): TraceCall {
  const input = use === undefined ? undefined : capped(JSON.stringify(use.input, null, 2) ?? 'null', INPUT_CHARS);
  const preview = result === undefined ? undefined : capped(result.text, PREVIEW_CHARS);
  if (entry === undefined) {
    const isError = result?.isError === true;
    return {
      toolUseId: id,
      tool: use?.tool ?? '?',
      summary: input === undefined ? '' : input.replace(/\s+/g, ' ').slice(0, 120),
      status: result === undefined ? 'no result' : 'ran',
      outcome: isError ? 'error' : 'ok',
      gate: 'unknown',
      why: 'this transcript has no decision ledger',
      asked: false,
      hooks: [],
      ...(input === undefined ? {} : { input }),
      result: { isError, ...(preview === undefined ? {} : { preview, chars: result!.text.length }) },
    };
  }
  const sandbox = sandboxText(entry.sandbox);
  return {
    toolUseId: id,
    tool: entry.tool,
    summary: entry.summary ?? '',
    ...(entry.agent === undefined ? {} : { agent: entry.agent }),
    ...(entry.step === undefined ? {} : { step: entry.step }),
    ...(entry.batch === undefined ? {} : { batch: entry.batch }),
    ...(entry.queuedAt === undefined ? {} : { queuedAt: entry.queuedAt }),
    ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }),
    endedAt: entry.endedAt,
    durationMs: entry.durationMs,
    status: entry.status,
    outcome: outcomeOf(entry.status, entry.result.isError),
    ...gateOf(entry),
    asked: entry.asked,
    hooks: entry.hooks,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(entry.message === undefined ? {} : { message: entry.message }),
    ...(input === undefined ? {} : { input }),
    result: { ...entry.result, ...(preview === undefined ? {} : { preview }) },
  };
}

/** Calls in the order they were queued; those without times keep their place at the end. */
function inStartOrder(calls: TraceCall[]): TraceCall[] {
  const at = (call: TraceCall) => call.queuedAt ?? call.startedAt ?? Number.POSITIVE_INFINITY;
  return calls
    .map((call, index) => ({ call, index }))
    .sort((a, b) => at(a.call) - at(b.call) || a.index - b.index)
    .map(({ call }) => call);
}

/** A ledger entry read from a line: `unknown` until its shape is checked. */
function asLedgerEntry(event: unknown): LedgerEntry | undefined {
  if (!isRecord(event) || event['type'] !== 'tool-decision') return undefined;
  if (typeof event['toolUseId'] !== 'string' || typeof event['tool'] !== 'string') return undefined;
  if (typeof event['status'] !== 'string' || !Array.isArray(event['hooks']) || !isRecord(event['result']))
    return undefined;
  return event as LedgerEntry;
}

/**
 * Reads a toolplane transcript (JSONL) into the trace page's model: turns start at each prompt a
 * person sent; each call joins the turn whose answer asked for it, with its ledger entry (the gate,
 * times, batch, hooks, sandbox, spill), its input and the start of its result. A subagent's calls
 * join the turn of the Agent call that started them. Lines that cannot be read are counted, not fatal.
 */
export function readTrace(transcript: string, fallbackId: string): TraceModel {
  let sessionId = fallbackId;
  let cwd = '';
  let createdAt: string | undefined;
  let skippedLines = 0;
  const turns: DraftTurn[] = [];
  const uses = new Map<string, Use>();
  const results = new Map<string, Result>();
  const ledger = new Map<string, LedgerEntry>();
  const turnOfCall = new Map<string, number>();
  const seen = new Set<string>();
  const addCall = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    if (turns.length === 0) turns.push({ prompt: '', ids: [] });
    turns[turns.length - 1]!.ids.push(id);
    turnOfCall.set(id, turns.length - 1);
  };
  const readBlocks = (role: unknown, content: unknown, at: string | undefined) => {
    const blocks = Array.isArray(content) ? (content as unknown[]).filter(isRecord) : [];
    if (role === 'user') {
      let hasResult = false;
      for (const block of blocks as Block[]) {
        if (block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') continue;
        hasResult = true;
        results.set(block['tool_use_id'], { text: contentText(block['content']), isError: block['is_error'] === true });
      }
      if (!hasResult) turns.push({ prompt: contentText(content), ...(at === undefined ? {} : { at }), ids: [] });
      return;
    }
    for (const block of blocks as Block[]) {
      if (block['type'] !== 'tool_use' || typeof block['id'] !== 'string') continue;
      uses.set(block['id'], { tool: text(block['name']), input: block['input'] });
      addCall(block['id']);
    }
  };
  for (const raw of transcript.split('\n')) {
    if (raw.trim() === '') continue;
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      skippedLines++;
      continue;
    }
    if (!isRecord(line)) {
      skippedLines++;
      continue;
    }
    const at = typeof line['timestamp'] === 'string' ? line['timestamp'] : undefined;
    if (line['type'] === 'session') {
      sessionId = text(line['sessionId']) || sessionId;
      cwd = text(line['cwd']);
      createdAt = text(line['createdAt']) || undefined;
    } else if (line['type'] === 'message' && isRecord(line['message'])) {
      readBlocks(line['message']['role'], line['message']['content'], at);
    } else if (line['type'] === 'event') {
      const entry = asLedgerEntry(line['event']);
      if (entry !== undefined) ledger.set(entry.toolUseId, entry);
    }
  }
  // A subagent's calls are in the ledger only; they join the turn of their Agent call.
  for (const entry of ledger.values()) {
    if (seen.has(entry.toolUseId)) continue;
    const turn = entry.agent === undefined ? undefined : turnOfCall.get(entry.agent.parentToolUseId);
    seen.add(entry.toolUseId);
    if (turns.length === 0) turns.push({ prompt: '', ids: [] });
    turns[turn ?? turns.length - 1]!.ids.push(entry.toolUseId);
  }
  return {
    sessionId,
    cwd,
    ...(createdAt === undefined ? {} : { createdAt }),
    turns: turns.map((turn) => ({
      prompt: turn.prompt,
      ...(turn.at === undefined ? {} : { at: turn.at }),
      calls: inStartOrder(turn.ids.map((id) => callOf(id, uses.get(id), ledger.get(id), results.get(id)))),
    })),
    hasLedger: ledger.size > 0,
    skippedLines,
  };
}
