import { describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../contract/provider.js';
import { afterFirstResponse } from './after-first-response.js';

const request: ModelRequest = { model: 'm', system: '', messages: [], tools: [], maxTokens: 10 };
const signal = new AbortController().signal;

/** A provider whose responses come from `plans`: events to yield, then maybe a failure. */
function provider(plans: { events: ModelStreamEvent[]; fail?: boolean }[], log: string[]): ModelProvider {
  return {
    name: 'fake',
    defaultModel: 'm',
    capabilities: { toolReference: false, webSearch: false },
    async *stream() {
      const plan = plans.shift() ?? { events: [] };
      log.push('request');
      for (const event of plan.events) {
        log.push('event');
        yield event;
      }
      if (plan.fail) throw new Error('refused');
    },
  };
}

const text: ModelStreamEvent = { type: 'text-delta', text: 'hi' };

describe('afterFirstResponse', () => {
  it('starts once, at the first event of the first response, and passes everything through', async () => {
    const log: string[] = [];
    const wrapped = afterFirstResponse(provider([{ events: [text, text] }, { events: [text] }], log), () =>
      log.push('start'),
    );
    expect(wrapped).toMatchObject({ name: 'fake', defaultModel: 'm' });
    const seen: ModelStreamEvent[] = [];
    for await (const event of wrapped.stream(request, signal)) seen.push(event);
    for await (const event of wrapped.stream(request, signal)) seen.push(event);
    expect(seen).toEqual([text, text, text]);
    expect(log).toEqual(['request', 'event', 'start', 'event', 'request', 'event']);
  });

  it('starts when the first response fails before any event', async () => {
    const log: string[] = [];
    const wrapped = afterFirstResponse(provider([{ events: [], fail: true }], log), () => log.push('start'));
    await expect(
      (async () => {
        for await (const event of wrapped.stream(request, signal)) void event;
      })(),
    ).rejects.toThrow('refused');
    expect(log).toEqual(['request', 'start']);
  });

  it('does not start before a response is read', () => {
    const log: string[] = [];
    const wrapped = afterFirstResponse(provider([], log), () => log.push('start'));
    wrapped.stream(request, signal);
    expect(log).toEqual([]);
  });
});
