import type { ModelProvider } from '../contract/provider.js';
import type { AssistantContentBlock, Message, ToolResultBlock, UserContentBlock } from '../messages/types.js';
import { normalizeMessages } from '../messages/normalize-messages.js';
import { repairPairing } from '../messages/repair-pairing.js';
import { COMPACTION_INSTRUCTION } from './compact-history.js';
import { createRunAccounting, type RunCosts } from './run-accounting.js';

/** Characters of one tool input or result kept in the transcript the summarizer reads. */
const MAX_TOOL_TEXT_CHARS = 4_000;

/** A summarizer for compaction that asks the session's own model, with no tools. */
export function createModelSummarizer(options: {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system: string;
  /** The session's prices and budget: the summary request is charged, and not sent once the budget is spent. */
  readonly costs?: () => RunCosts | undefined;
}) {
  return async (messages: readonly Message[], signal: AbortSignal): Promise<string> => {
    const costs = options.costs?.();
    const accounting = createRunAccounting(costs);
    if (accounting.overBudget(options.model))
      throw new Error('the session has spent its --max-budget-usd: no summary request was sent');
    const history = toolBlocksAsText(repairPairing(normalizeMessages(messages, { toolReference: false })).messages);
    const last = history[history.length - 1];
    const request =
      last?.role === 'user'
        ? [
            ...history.slice(0, -1),
            {
              role: 'user' as const,
              content: [
                ...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content),
                { type: 'text' as const, text: COMPACTION_INSTRUCTION },
              ],
            },
          ]
        : [...history, { role: 'user' as const, content: COMPACTION_INSTRUCTION }];
    let text = '';
    for await (const event of options.provider.stream(
      { model: options.model, system: options.system, messages: request, tools: [], maxTokens: 4_096 },
      signal,
    )) {
      if (event.type === 'text-delta') text += event.text;
      // Charged to the session's meter, as the loop's own requests are.
      if (event.type === 'message-complete') accounting.response(options.model, event, 0);
    }
    if (text.trim() === '') throw new Error('the model returned an empty summary');
    return text;
  };
}

/**
 * The summary request carries no tools, and APIs refuse `tool_use`/`tool_result` blocks in a
 * request without tools (Anthropic: "must define tools"), so calls and results become text.
 */
function toolBlocksAsText(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  return messages.map((message): Message => {
    if (message.role === 'assistant') {
      const content = message.content.map((block): AssistantContentBlock => {
        if (block.type !== 'tool_use') return block;
        names.set(block.id, block.name);
        return {
          type: 'text',
          text: `[Called ${block.name} (${block.id}) with input: ${clip(safeJson(block.input))}]`,
        };
      });
      return { role: 'assistant', content };
    }
    if (typeof message.content === 'string') return message;
    const content = message.content.map((block): UserContentBlock =>
      block.type === 'tool_result' ? { type: 'text', text: resultAsText(block, names) } : block,
    );
    return { role: 'user', content };
  });
}

function resultAsText(block: ToolResultBlock, names: ReadonlyMap<string, string>): string {
  const body =
    typeof block.content === 'string'
      ? block.content
      : block.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  const name = names.get(block.tool_use_id) ?? 'a tool';
  return `[Result of ${name} (${block.tool_use_id})${block.is_error ? ', an error' : ''}: ${clip(body)}]`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function clip(text: string): string {
  return text.length > MAX_TOOL_TEXT_CHARS
    ? `${text.slice(0, MAX_TOOL_TEXT_CHARS)}… (${text.length - MAX_TOOL_TEXT_CHARS} more characters)`
    : text;
}
