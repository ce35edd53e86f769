import type { Message } from '../messages/types.js';
import { isPreviewContent } from '../results/govern-size.js';
import type { ContextResults } from '../tools/read/unchanged-read.js';

/**
 * Answers which tool results the model can still see whole, from the conversation's current
 * history: a result compacted away is not there, and one replaced by a preview does not count.
 * Searches from the newest message, where the results a re-read points at usually are.
 */
export function createContextResults(messages: () => readonly Message[]): ContextResults {
  return {
    holds(toolUseId) {
      const history = messages();
      for (let index = history.length - 1; index >= 0; index--) {
        const message = history[index]!;
        if (message.role !== 'user' || typeof message.content === 'string') continue;
        for (const block of message.content)
          if (block.type === 'tool_result' && block.tool_use_id === toolUseId)
            return block.is_error !== true && !isPreviewContent(block.content);
      }
      return false;
    },
  };
}
