import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import { createApiToolCache } from '../schema/to-api-tool.js';
import { sampleTools } from '../testing/sample-tools.js';
import { buildRequest } from './build-request.js';
import { viewDeferral } from './deferral.js';

const pool = assembleToolPool({
  builtins: sampleTools.filter((t) => t.origin === 'builtin'),
  external: sampleTools.filter((t) => t.origin === 'external'),
});
const provider = createScriptedProvider({ turns: [] });
const history: Message[] = [
  { role: 'user', content: 'first' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Echo', input: { text: 'x' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] },
];

describe('buildRequest', () => {
  it('puts prompt-cache breakpoints on the system prompt, the last loaded tool and the last message', () => {
    const toolCache = createApiToolCache();
    const request = buildRequest({
      provider,
      model: 'm',
      system: 'be brief',
      messages: history,
      pool,
      deferral: undefined,
      toolCache,
      maxTokens: 100,
    });
    expect(request.system).toEqual([{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }]);
    const marked = request.tools.filter((tool) => tool.cache_control);
    expect(marked.map((tool) => tool.name)).toEqual([request.tools[request.tools.length - 1]!.name]);
    expect(request.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x', cache_control: { type: 'ephemeral' } }],
    });
    // The history itself is untouched, and unmarked tools are the cached objects.
    expect(history[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] });
    expect(request.tools[0]).toBe(toolCache.toApiTool(pool.tools[0]!));
  });

  it('keeps the tools prefix byte-identical while discovered tools are added after the breakpoint, in discovery order', () => {
    const toolCache = createApiToolCache();
    const strategy = { isDeferred: (tool: { name: string }) => tool.name === 'Echo' || tool.name === 'Sleep' };
    const deferred = pool.tools.filter(strategy.isDeferred).map((tool) => tool.name);
    expect(deferred.length).toBeGreaterThan(1);
    const reference = (id: string, name: string): Message[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'ToolSearch', input: { query: name } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'tool_reference', tool_name: name }] }],
      },
    ];
    // The later tool in pool order is discovered first: it must stay first in tools[].
    const first = [...history, ...reference('s1', deferred[1]!)];
    const second = [...first, ...reference('s2', deferred[0]!)];
    const build = (messages: Message[]) =>
      buildRequest({
        provider,
        model: 'm',
        system: 's',
        messages,
        pool,
        deferral: viewDeferral(messages, pool, strategy),
        toolCache,
        maxTokens: 100,
      });
    const before = build(first);
    const after = build(second);
    expect(JSON.stringify(after.tools.slice(0, before.tools.length))).toBe(JSON.stringify(before.tools));
    expect(after.tools.slice(-2).map((tool) => tool.name)).toEqual([deferred[1], deferred[0]]);
    expect(after.tools[after.tools.length - 1]).toMatchObject({ defer_loading: true });
    // Nothing is added to the messages: the announcement is the history's own.
    expect(JSON.stringify(after.messages)).not.toContain('deferred-tools');
  });

  it('can leave breakpoints out', () => {
    const request = buildRequest({
      provider,
      model: 'm',
      system: 's',
      messages: history,
      pool,
      deferral: undefined,
      toolCache: createApiToolCache(),
      maxTokens: 1,
      cacheBreakpoints: false,
    });
    expect(request.system).toBe('s');
    expect(JSON.stringify(request)).not.toContain('cache_control');
  });
});
