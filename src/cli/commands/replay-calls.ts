import { readFile } from 'node:fs/promises';
import { describeReason, type DecisionReason } from '../../contract/permission.js';

/** How a recorded call was decided, as far as its transcript tells. */
export type RecordedDecision =
  /** Ran without anyone asked: a rule, the mode or a read-only check allowed it. */
  | { readonly kind: 'allow'; readonly why: string }
  /** Refused by a rule, the mode or a safety check. */
  | { readonly kind: 'deny'; readonly why: string }
  /** A person (or a host's canUseTool) was asked; `answer` is what happened. */
  | { readonly kind: 'person'; readonly answer: 'allowed' | 'denied' }
  /** A hook decided it. */
  | { readonly kind: 'hook'; readonly answer: 'allowed' | 'denied'; readonly hook: string }
  /** A transcript without a ledger (an older toolplane's, or Claude Code's): only whether it ran. */
  | { readonly kind: 'unknown'; readonly ran: boolean };

/** One tool call found in a transcript. */
export type RecordedCall = {
  readonly file: string;
  readonly sessionId: string;
  /** The working folder the session ran in: the call's relative paths resolve against it. */
  readonly cwd: string;
  readonly toolUseId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly recorded: RecordedDecision;
};

type Block = {
  type?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  is_error?: unknown;
  content?: unknown;
};
type Ledger = {
  toolUseId?: unknown;
  status?: unknown;
  asked?: unknown;
  hooks?: { said?: unknown; hook?: unknown }[];
  decision?: { reason?: Record<string, unknown> };
  deniedBy?: Record<string, unknown>;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A recorded reason as the plane words it (the rule and its file, the mode, the check). */
function reasonText(reason: Record<string, unknown> | undefined): string {
  return reason === undefined ? 'no reason recorded' : describeReason(reason as DecisionReason);
}

function fromLedger(entry: Ledger): RecordedDecision {
  const refused = entry.status === 'denied' || entry.status === 'hook-blocked';
  if (entry.status === 'hook-blocked') {
    const hook = entry.hooks?.find((each) => each.said === 'deny' || each.said === 'block') ?? entry.hooks?.[0];
    return { kind: 'hook', answer: 'denied', hook: String(hook?.hook ?? 'a hook') };
  }
  const hookAllowed = entry.decision?.reason?.['kind'] === 'hook';
  if (hookAllowed)
    return { kind: 'hook', answer: refused ? 'denied' : 'allowed', hook: String(entry.decision?.reason?.['hook']) };
  if (entry.asked === true) return { kind: 'person', answer: refused ? 'denied' : 'allowed' };
  if (refused) return { kind: 'deny', why: reasonText(entry.deniedBy ?? entry.decision?.reason) };
  return { kind: 'allow', why: reasonText(entry.decision?.reason) };
}

/**
 * The tool calls of a transcript, toolplane's (`session`, `message` and `event` lines, the ledger's
 * `tool-decision` events telling how each was decided) or Claude Code's (`user` and `assistant`
 * lines with `message` and `cwd`, as https://claude-dev.tools/docs/jsonl-format describes them),
 * each with the working folder it ran in. Lines that are neither are skipped.
 */
export async function readRecordedCalls(file: string): Promise<RecordedCall[]> {
  const text = await readFile(file, 'utf8');
  let cwd = '';
  let sessionId = '';
  const uses = new Map<string, { tool: string; input: unknown; cwd: string }>();
  const ledger = new Map<string, Ledger>();
  const results = new Map<string, { error: boolean }>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!isRecord(line)) continue;
    if (typeof line['cwd'] === 'string') cwd = line['cwd'];
    if (typeof line['sessionId'] === 'string') sessionId = line['sessionId'];
    if (line['type'] === 'event' && isRecord(line['event']) && line['event']['type'] === 'tool-decision') {
      const entry = line['event'] as Ledger;
      if (typeof entry.toolUseId === 'string') ledger.set(entry.toolUseId, entry);
      continue;
    }
    const message = line['message'];
    if (!isRecord(message) || !Array.isArray(message['content'])) continue;
    for (const block of message['content'] as Block[]) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
        uses.set(block.id, { tool: block.name, input: block.input ?? {}, cwd });
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string')
        results.set(block.tool_use_id, { error: block.is_error === true });
    }
  }
  return [...uses].map(([toolUseId, use]) => {
    const entry = ledger.get(toolUseId);
    const ran = results.get(toolUseId)?.error !== true;
    return {
      file,
      sessionId,
      cwd: use.cwd,
      toolUseId,
      tool: use.tool,
      input: use.input,
      recorded: entry === undefined ? { kind: 'unknown', ran } : fromLedger(entry),
    };
  });
}
