import type { ModelProvider } from '../contract/provider.js';
import type { Message } from '../messages/types.js';
import { normalizeMessages } from '../messages/normalize-messages.js';
import { repairPairing } from '../messages/repair-pairing.js';
import { COMPACTION_INSTRUCTION } from './compact-history.js';

/** A summarizer for compaction that asks the session's own model, with no tools. */
export function createModelSummarizer(options: { readonly provider: ModelProvider; readonly model: string; readonly system: string }) {
  return async (messages: readonly Message[], signal: AbortSignal): Promise<string> => {
    const history = repairPairing(normalizeMessages(messages, { toolReference: false })).messages;
    const last = history[history.length - 1];
    const request = last?.role === 'user'
      ? [...history.slice(0, -1), { role: 'user' as const, content: [...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content), { type: 'text' as const, text: COMPACTION_INSTRUCTION }] }]
      : [...history, { role: 'user' as const, content: COMPACTION_INSTRUCTION }];
    let text = '';
    for await (const event of options.provider.stream(
      { model: options.model, system: options.system, messages: request, tools: [], maxTokens: 4_096 },
      signal,
    )) {
      if (event.type === 'text-delta') text += event.text;
    }
    if (text.trim() === '') throw new Error('the model returned an empty summary');
    return text;
  };
}
