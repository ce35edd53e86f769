import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  ToolResultBlock,
  UserContentBlock,
  UserMessage,
} from './types.js';

/** What repair changed, for logs and tests. */
export type PairingRepairReport = {
  /** `tool_use` ids that had no result and got a synthetic error result. */
  readonly synthesized: readonly string[];
  /** `tool_result` ids dropped because no `tool_use` right before them had that id. */
  readonly orphanResults: readonly string[];
  /** Ids whose second (or later) `tool_use` or `tool_result` was dropped. */
  readonly duplicates: readonly string[];
};

/** The text of the synthetic result given to a `tool_use` that never got one. */
export const MISSING_RESULT_TEXT =
  '<tool_use_error>This call was interrupted before it produced a result; it may or may not have run. Check the current state before retrying.</tool_use_error>';

/**
 * Repairs the `tool_use` / `tool_result` pairing of a history so the API accepts it: every
 * `tool_use` gets exactly one result in the user message right after it (a synthetic error if it
 * had none), a result with no `tool_use` right before it is dropped, and duplicate ids keep only
 * their first occurrence. Messages left empty are removed and same-role neighbours merged.
 * Pure: never mutates its input; a message that needs no repair is returned as the same object
 * (encodings cached by identity stay valid), any other is a new one.
 */
export function repairPairing(messages: readonly Message[]): { messages: Message[]; report: PairingRepairReport } {
  const synthesized: string[] = [];
  const orphanResults: string[] = [];
  const duplicates: string[] = [];
  const seenUses = new Set<string>();
  const out: Message[] = [];

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      const content: AssistantContentBlock[] = [];
      const ids: string[] = [];
      for (const block of message.content) {
        if (block.type === 'tool_use') {
          if (seenUses.has(block.id)) {
            duplicates.push(block.id);
            continue;
          }
          seenUses.add(block.id);
          ids.push(block.id);
        }
        content.push(block);
      }
      if (content.length === 0) continue;
      pushMerged(out, content.length === message.content.length ? message : { role: 'assistant', content });
      if (ids.length === 0) continue;

      const next = messages[index + 1];
      const userContent: UserContentBlock[] =
        next?.role === 'user'
          ? typeof next.content === 'string'
            ? [{ type: 'text', text: next.content }]
            : [...next.content]
          : [];
      if (next?.role === 'user') index++;
      const paired = pairResults(ids, userContent, { synthesized, orphanResults, duplicates });
      out.push(next?.role === 'user' && sameBlocks(paired, next.content) ? next : { role: 'user', content: paired });
      continue;
    }
    const content = typeof message.content === 'string' ? message.content : dropResults(message.content, orphanResults);
    if (typeof content !== 'string' && content.length === 0) continue;
    pushMerged(
      out,
      content === message.content || sameBlocks(content, message.content) ? message : { role: 'user', content },
    );
  }
  return { messages: out, report: { synthesized, orphanResults, duplicates } };
}

function pairResults(
  ids: readonly string[],
  content: readonly UserContentBlock[],
  report: { synthesized: string[]; orphanResults: string[]; duplicates: string[] },
): UserContentBlock[] {
  const wanted = new Set(ids);
  const results = new Map<string, ToolResultBlock>();
  const rest: UserContentBlock[] = [];
  for (const block of content) {
    if (block.type !== 'tool_result') {
      rest.push(block);
    } else if (!wanted.has(block.tool_use_id)) {
      report.orphanResults.push(block.tool_use_id);
    } else if (results.has(block.tool_use_id)) {
      report.duplicates.push(block.tool_use_id);
    } else {
      results.set(block.tool_use_id, block);
    }
  }
  const paired: UserContentBlock[] = ids.map((id) => {
    const result = results.get(id);
    if (result) return result;
    report.synthesized.push(id);
    return { type: 'tool_result', tool_use_id: id, content: MISSING_RESULT_TEXT, is_error: true };
  });
  // Results first: the API wants them at the start of the user message.
  return [...paired, ...rest];
}

/** True when `blocks` holds exactly the blocks of `content`, in order (a repair that changed nothing). */
function sameBlocks(blocks: readonly UserContentBlock[] | string, content: UserMessage['content']): boolean {
  if (typeof blocks === 'string' || typeof content === 'string' || blocks.length !== content.length) return false;
  return blocks.every((block, index) => block === content[index]);
}

function dropResults(content: readonly UserContentBlock[], orphanResults: string[]): UserContentBlock[] {
  const kept: UserContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') orphanResults.push(block.tool_use_id);
    else kept.push(block);
  }
  return kept;
}

function pushMerged(out: Message[], message: Message): void {
  const last = out[out.length - 1];
  if (!last || last.role !== message.role) {
    out.push(message);
    return;
  }
  if (last.role === 'assistant' && message.role === 'assistant') {
    out[out.length - 1] = {
      role: 'assistant',
      content: [...last.content, ...message.content],
    } satisfies AssistantMessage;
    return;
  }
  const toBlocks = (m: UserMessage): UserContentBlock[] =>
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content];
  out[out.length - 1] = {
    role: 'user',
    content: [...toBlocks(last as UserMessage), ...toBlocks(message as UserMessage)],
  };
}
