import type { Message } from '../../messages/types.js';

/**
 * The names of the tools discovered so far: every `tool_reference` inside a `tool_result` of the
 * message history, in order of first appearance. Recomputed from the history, so it survives
 * resume and compaction as long as the references are kept. Discovery is not authorization.
 */
export function discoveredToolNames(messages: readonly Message[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result' || typeof block.content === 'string') continue;
      for (const item of block.content) if (item.type === 'tool_reference') names.add(item.tool_name);
    }
  }
  return names;
}
