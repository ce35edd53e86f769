import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { AnyTool } from '../contract/tool.js';
import type { Message } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { announcedState, createDeferralTracker, discoveryOrder, viewDeferral } from './deferral.js';

const tool = (name: string): AnyTool =>
  defineTool({ name, inputSchema: z.object({}), prompt: name, call: async () => name }) as AnyTool;
const poolOf = (...names: string[]) => assembleToolPool({ builtins: names.map(tool), external: [] });
const deferred = (...names: string[]) => ({ isDeferred: (t: AnyTool) => names.includes(t.name) });
const reference = (id: string, name: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'tool_reference', tool_name: name }] }],
});
const textOf = (message: Message | undefined) =>
  message && typeof message.content !== 'string' && message.content[0]?.type === 'text' ? message.content[0].text : '';

describe('discoveryOrder', () => {
  it('collects every tool_reference and every name a compaction carried, in order of first appearance', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'summary <discovered-tools>C,A</discovered-tools>' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'B is not a reference' }] },
      reference('t1', 'B'),
      reference('t2', 'A'),
    ];
    expect([...discoveryOrder(messages).keys()]).toEqual(['C', 'A', 'B']);
    expect(discoveryOrder([]).size).toBe(0);
  });
});

describe('viewDeferral', () => {
  const strategy = deferred('Beta', 'Alpha', 'Gamma');

  it('announces the whole deferred set once, then nothing while it stays the same', () => {
    const pool = poolOf('Read', 'Alpha', 'Beta');
    const history: Message[] = [{ role: 'user', content: 'hi' }];
    const first = viewDeferral(history, pool, strategy);
    expect(first.loaded.map((t) => t.name)).toEqual(['Read']);
    expect(textOf(first.announcement)).toMatch(/^<deferred-tools>\nThe following deferred tools are available\./);
    expect(textOf(first.announcement)).toContain('- Alpha\n- Beta\n</deferred-tools>');
    const again = viewDeferral([...history, first.announcement!], pool, strategy);
    expect(again.announcement).toBeUndefined();
  });

  it('announces a change of the set as a delta of added and removed names', () => {
    const history: Message[] = [{ role: 'user', content: 'hi' }];
    const first = viewDeferral(history, poolOf('Alpha', 'Beta'), strategy).announcement!;
    const delta = viewDeferral([...history, first], poolOf('Alpha', 'Gamma'), strategy).announcement!;
    expect(textOf(delta)).toContain('More deferred tools are available');
    expect(textOf(delta)).toContain('- Gamma\nThese deferred tools are no longer available:\n- Beta');
    expect(textOf(delta)).not.toContain('- Alpha');
    expect([...announcedState([...history, first, delta]).names].sort()).toEqual(['Alpha', 'Gamma']);
  });

  it('names the servers still connecting, and says when they have all connected', () => {
    let pending = ['jira'];
    const tracker = createDeferralTracker({ ...strategy, pendingServers: () => pending });
    const history: Message[] = [{ role: 'user', content: 'hi' }];
    const first = tracker.view(history, poolOf('Read'));
    expect(textOf(first.announcement)).toContain(
      'MCP servers still connecting (their tools are not listed yet): jira.',
    );
    expect(tracker.current()).toBe(first);
    history.push(first.announcement!);
    pending = [];
    const settled = tracker.view(history, poolOf('Read', 'Alpha'));
    expect(textOf(settled.announcement)).toContain('- Alpha\nEvery MCP server has finished connecting.');
  });

  it('lists discovered tools in order of discovery, not pool order, and loads only those', () => {
    const pool = poolOf('Alpha', 'Beta', 'Gamma');
    const view = viewDeferral([reference('a', 'Gamma'), reference('b', 'Alpha')], pool, strategy);
    expect(view.discovered.map((t) => t.name)).toEqual(['Gamma', 'Alpha']);
    expect(view.deferred.map((t) => t.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(view.isSchemaLoaded(pool.find('Alpha')!)).toBe(true);
    expect(view.isSchemaLoaded(pool.find('Beta')!)).toBe(false);
  });

  it('announces nothing when nothing is deferred', () => {
    expect(viewDeferral([{ role: 'user', content: 'hi' }], poolOf('Read'), strategy).announcement).toBeUndefined();
  });
});
