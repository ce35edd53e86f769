import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../contract/provider.js';
import { parseScript } from '../providers/scripted/parse-script.js';
import { scriptedModel, textTurn, toJsonl, toolTurn } from './scripted-model.js';

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('scripted model builders', () => {
  it('build turns that survive a round trip through a JSONL script', () => {
    const turns = [
      toolTurn(
        [
          { name: 'Read', id: 'r1', input: { file_path: '/a' } },
          { name: 'Glob', inputJson: '{"pattern":' },
        ],
        {
          text: 'Looking around.',
          expect: { tools: ['Read', 'Glob'] },
        },
      ),
      textTurn('Done.', {
        expect: { tool_results: ['r1', 'toolu_script_1_3'], errors: ['toolu_script_1_3'] },
        stopReason: 'end_turn',
      }),
    ];
    const script = parseScript(toJsonl(turns), { source: 'built' });
    expect(script.turns).toEqual(turns);
    expect(script.labels).toEqual(['built line 1', 'built line 2']);
  });

  it('play in order through scriptedModel', async () => {
    const model = scriptedModel([toolTurn([{ name: 'Read', input: {} }]), textTurn('bye')]);
    const request = { model: 'm', system: '', messages: [], tools: [], maxTokens: 10 };
    const first = await collect(model.stream(request, new AbortController().signal));
    expect(first.find((event) => event.type === 'tool-use-start')).toEqual({
      type: 'tool-use-start',
      id: 'toolu_script_1_1',
      name: 'Read',
    });
    const second = await collect(model.stream(request, new AbortController().signal));
    const done = second.at(-1);
    expect(done?.type === 'message-complete' && done.stopReason).toBe('end_turn');
    expect(model.turnsPlayed).toBe(2);
  });
});
