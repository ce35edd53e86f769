import type {
  AssistantContentBlock,
  Message,
  ToolResultBlock,
  ToolResultContentBlock,
  UserContentBlock,
} from './types.js';
import { getUnparseableInput } from './types.js';

/** What the provider at the edge accepts. */
export type NormalizeOptions = {
  /** The provider takes `tool_reference` blocks; otherwise they become text. */
  readonly toolReference: boolean;
};

/**
 * Normalizes a history for the API: unparseable tool inputs are sent as `{}` (the plane already
 * answered them with an error), `tool_reference` blocks become text for providers that cannot take
 * them, empty text blocks are removed, and user messages put their tool results first.
 * Pure; a message that needs no change is returned as the same object (encodings cached by
 * identity stay valid). Run it before {@link repairPairing}.
 */
export function normalizeMessages(messages: readonly Message[], options: NormalizeOptions): Message[] {
  return messages.map((message) => {
    if (message.role === 'assistant') {
      let changed = false;
      const content: AssistantContentBlock[] = [];
      for (const block of message.content) {
        if (block.type === 'text' && block.text.length === 0) {
          changed = true;
          continue;
        }
        if (block.type === 'tool_use' && getUnparseableInput(block.input) !== undefined) {
          changed = true;
          content.push({ ...block, input: {} });
          continue;
        }
        content.push(block);
      }
      return changed ? { role: 'assistant', content } : message;
    }
    if (typeof message.content === 'string') return message;
    let changed = false;
    const results: UserContentBlock[] = [];
    const rest: UserContentBlock[] = [];
    for (const block of message.content) {
      if (block.type === 'tool_result') {
        const kept = options.toolReference ? block : withoutReferences(block);
        // A result after another block moves, which changes the message too.
        if (kept !== block || rest.length > 0) changed = true;
        results.push(kept);
      } else if (block.type === 'text' && block.text.length === 0) changed = true;
      else rest.push(block);
    }
    return changed ? { role: 'user', content: [...results, ...rest] } : message;
  });
}

function withoutReferences(block: ToolResultBlock): ToolResultBlock {
  if (typeof block.content === 'string' || !block.content.some((part) => part.type === 'tool_reference')) return block;
  const names: string[] = [];
  const content: ToolResultContentBlock[] = [];
  for (const part of block.content) {
    if (part.type === 'tool_reference') names.push(part.tool_name);
    else content.push(part);
  }
  content.push({
    type: 'text',
    text: `Tools loaded: ${names.join(', ')}. Their full definitions are now in your tool list.`,
  });
  return { ...block, content };
}
