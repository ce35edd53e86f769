import { describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../contract/provider.js';
import type { Message } from '../messages/types.js';
import { createSpendingMeter } from './run-accounting.js';
import { createModelSummarizer } from './summarize-with-model.js';

/** A provider that, like the Anthropic Messages API, refuses tool blocks in a request without tools. */
function strictProvider(requests: ModelRequest[]): ModelProvider {
  return {
    name: 'strict',
    defaultModel: 'm',
    capabilities: { toolReference: false, webSearch: false },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      const hasToolBlocks = request.messages.some(
        (message) =>
          typeof message.content !== 'string' &&
          message.content.some((block) => block.type === 'tool_use' || block.type === 'tool_result'),
      );
      if (hasToolBlocks && request.tools.length === 0)
        throw new Error('Requests which include tool_use or tool_result blocks must define tools.');
      yield { type: 'text-delta', text: 'the summary' };
      yield {
        type: 'message-complete',
        message: { role: 'assistant', content: [{ type: 'text', text: 'the summary' }] },
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

describe('the model summarizer', () => {
  it('sends tool calls and results as text, since the summary request has no tools', async () => {
    const requests: ModelRequest[] = [];
    const summarize = createModelSummarizer({ provider: strictProvider(requests), model: 'm', system: 's' });
    const history: Message[] = [
      { role: 'user', content: 'list the files' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Listing.' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt\nb.txt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
    ];
    expect(await summarize(history, new AbortController().signal)).toBe('the summary');
    const sent = JSON.stringify(requests[0]!.messages);
    expect(sent).toContain('Bash');
    expect(sent).toContain('ls');
    expect(sent).toContain('a.txt');
  });

  it("charges the summary request to the session's meter, and sends none once the budget is spent", async () => {
    const requests: ModelRequest[] = [];
    const meter = createSpendingMeter();
    const costs = { costOf: () => 0.5, maxUsd: 1, meter };
    const summarize = createModelSummarizer({
      provider: strictProvider(requests),
      model: 'm',
      system: 's',
      costs: () => costs,
    });
    const history: Message[] = [{ role: 'user', content: 'hello' }];
    await summarize(history, new AbortController().signal);
    expect(meter.spentUsd()).toBe(0.5);
    meter.charge('m', { inputTokens: 0, outputTokens: 0 }, 0.5);
    await expect(summarize(history, new AbortController().signal)).rejects.toThrow(/--max-budget-usd/);
    expect(requests).toHaveLength(1);
  });
});
