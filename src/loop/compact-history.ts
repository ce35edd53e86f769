import type { Message, UserMessage } from '../messages/types.js';

const DISCOVERED_OPEN = '<discovered-tools>';
const DISCOVERED_CLOSE = '</discovered-tools>';
const SUMMARY_PREFIX =
  'This session is being continued from an earlier conversation that was compacted. Summary of the earlier part:';
const SAVED_OUTPUT = /The full output is saved in (\S+?);/g;

/** Names of discovered deferred tools carried over a compaction, from its summary message. */
export function carriedDiscoveredTools(messages: readonly Message[]): string[] {
  const names: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const texts =
      typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    for (const text of texts) {
      const start = text.indexOf(DISCOVERED_OPEN);
      if (start === -1) continue;
      const end = text.indexOf(DISCOVERED_CLOSE, start);
      if (end === -1) continue;
      names.push(
        ...text
          .slice(start + DISCOVERED_OPEN.length, end)
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      );
    }
  }
  return names;
}

/**
 * Where the kept tail of a history may start so it stays protocol-valid after a summary message:
 * an assistant message (its tool results follow it), or a user message that carries no tool
 * results (results whose tool_use would be cut away are not). Searches back from keeping
 * `keepAtLeast` messages (or all but the first, in a shorter history); returns the index, or -1
 * when no such cut exists.
 */
export function findCompactionCut(messages: readonly Message[], keepAtLeast: number): number {
  for (
    let index = Math.min(messages.length - 1, Math.max(1, messages.length - Math.max(1, keepAtLeast)));
    index >= 1;
    index--
  ) {
    const message = messages[index]!;
    if (message.role === 'assistant') return index;
    if (typeof message.content === 'string' || !message.content.some((block) => block.type === 'tool_result'))
      return index;
  }
  return -1;
}

/**
 * Replaces the messages before `cut` with one summary message, carrying over what must survive:
 * the discovered deferred tools and the paths of results that were saved to files.
 */
export function compactHistory(options: {
  readonly messages: readonly Message[];
  readonly cut: number;
  readonly summary: string;
  readonly discovered: readonly string[];
}): Message[] {
  const removed = options.messages.slice(0, options.cut);
  const savedFiles = new Set<string>();
  for (const message of removed) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const texts =
        typeof block.content === 'string'
          ? [block.content]
          : block.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      for (const text of texts) for (const match of text.matchAll(SAVED_OUTPUT)) savedFiles.add(match[1]!);
    }
  }
  let text = `${SUMMARY_PREFIX}\n\n${options.summary.trim()}`;
  if (savedFiles.size > 0) text += `\n\nLarge tool outputs from that part are saved in: ${[...savedFiles].join(', ')}`;
  if (options.discovered.length > 0) text += `\n\n${DISCOVERED_OPEN}${options.discovered.join(',')}${DISCOVERED_CLOSE}`;
  const summaryMessage: UserMessage = { role: 'user', content: [{ type: 'text', text }] };
  const kept = options.messages.slice(options.cut);
  const first = kept[0];
  // The summary and the first kept user message merge, so roles keep alternating.
  if (first && first.role === 'user') {
    const firstContent =
      typeof first.content === 'string' ? [{ type: 'text' as const, text: first.content }] : [...first.content];
    return [
      {
        role: 'user',
        content: [...(summaryMessage.content as readonly { type: 'text'; text: string }[]), ...firstContent],
      },
      ...kept.slice(1),
    ];
  }
  return [summaryMessage, ...kept];
}

/** The instruction given to the model when it summarizes old turns. */
export const COMPACTION_INSTRUCTION =
  'Summarize the conversation so far for your own later use: the task and its goal, decisions made, files read and changed (with paths), commands run and their outcomes, errors met and how they were handled, and what remains to be done. Be specific and complete; this summary replaces the earlier messages.';
