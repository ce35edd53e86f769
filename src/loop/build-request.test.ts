import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { createScriptedProvider } from '../providers/scripted/scripted-provider.js';
import { createApiToolCache } from '../schema/to-api-tool.js';
import { sampleTools } from '../testing/sample-tools.js';
import { buildRequest } from './build-request.js';

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
    const { request } = buildRequest({
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

  it('keeps the tools prefix byte-identical while discovered tools are added after the breakpoint', () => {
    const toolCache = createApiToolCache();
    const deferral = {
      isDeferred: (tool: { origin: string }) => tool.origin === 'external',
      discovered: (messages: readonly Message[]) => new Set(messages.length > 3 ? ['mcp__sample__get_weather'] : []),
      announce: (names: readonly string[]) => `deferred: ${names.join(',')}`,
    };
    const before = buildRequest({
      provider,
      model: 'm',
      system: 's',
      messages: history,
      pool,
      deferral,
      toolCache,
      maxTokens: 100,
    }).request;
    const after = buildRequest({
      provider,
      model: 'm',
      system: 's',
      messages: [
        ...history,
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: 'next' },
      ],
      pool,
      deferral,
      toolCache,
      maxTokens: 100,
    }).request;
    expect(JSON.stringify(after.tools.slice(0, before.tools.length))).toBe(JSON.stringify(before.tools));
    expect(after.tools[after.tools.length - 1]).toMatchObject({
      name: 'mcp__sample__get_weather',
      defer_loading: true,
    });
    expect(JSON.stringify(before.messages)).toContain('deferred: mcp__sample__get_weather');
  });

  it('can leave breakpoints out', () => {
    const { request } = buildRequest({
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
