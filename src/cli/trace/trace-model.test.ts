import { describe, expect, it } from 'vitest';
import { readTrace } from './trace-model.js';
import { renderTracePage } from './trace-page.js';

const line = (value: unknown) => JSON.stringify(value);
const entry = (fields: Record<string, unknown>) => ({
  type: 'event',
  timestamp: '2026-12-04T00:00:00.000Z',
  event: {
    type: 'tool-decision',
    status: 'success',
    asked: false,
    hooks: [],
    result: { chars: 1, isError: false },
    endedAt: 0,
    durationMs: 0,
    ...fields,
  },
});

describe('readTrace', () => {
  it("puts a subagent's calls in the turn of its Agent call, in the order they were queued", () => {
    const model = readTrace(
      [
        line({ type: 'session', sessionId: 's1', cwd: '/p', createdAt: '2026-12-04T00:00:00.000Z' }),
        line({ type: 'message', message: { role: 'user', content: 'first' } }),
        line({
          type: 'message',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'a', name: 'Agent', input: { prompt: 'go' } }],
          },
        }),
        line({
          type: 'message',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'report' }] },
        }),
        line({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'second' }] } }),
        line({
          type: 'message',
          message: { role: 'assistant', content: [{ type: 'tool_use', id: 'g', name: 'Glob', input: {} }] },
        }),
        line(entry({ toolUseId: 'a', tool: 'Agent', queuedAt: 10, startedAt: 10, endedAt: 90 })),
        line(
          entry({
            toolUseId: 'inner',
            tool: 'Read',
            queuedAt: 20,
            startedAt: 21,
            endedAt: 30,
            agent: { agentId: 'agent-1', parentToolUseId: 'a' },
          }),
        ),
        line(
          entry({
            toolUseId: 'g',
            tool: 'Glob',
            status: 'denied',
            deniedBy: { kind: 'mode', mode: 'plan' },
            queuedAt: 100,
            endedAt: 100,
          }),
        ),
      ].join('\n'),
      'fallback',
    );
    expect(model.sessionId).toBe('s1');
    expect(model.turns.map((turn) => turn.prompt)).toEqual(['first', 'second']);
    expect(model.turns[0]!.calls.map((call) => [call.toolUseId, call.agent?.agentId])).toEqual([
      ['a', undefined],
      ['inner', 'agent-1'],
    ]);
    // The subagent's call has no input in the main transcript; it says so rather than guessing.
    expect(model.turns[0]!.calls[1]!.input).toBeUndefined();
    expect(model.turns[1]!.calls[0]).toMatchObject({ gate: 'mode', why: 'plan', outcome: 'denied' });
  });

  it('skips lines it cannot read and entries of the wrong shape, and names the lack of a ledger', () => {
    const model = readTrace(
      [
        'not json',
        '42',
        line({ type: 'event', event: { type: 'tool-decision', toolUseId: 7 } }),
        line({ type: 'message', message: { role: 'user', content: 'hi' } }),
        line({
          type: 'message',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'a' } }],
          },
        }),
      ].join('\n'),
      'from-name',
    );
    expect(model).toMatchObject({ sessionId: 'from-name', skippedLines: 2, hasLedger: false });
    expect(model.turns[0]!.calls[0]).toMatchObject({ toolUseId: 't', status: 'no result', gate: 'unknown' });
  });
});

describe('renderTracePage', () => {
  it('keeps every name from the transcript as text, in attributes and content alike', () => {
    const hostile = 'x" onmouseover="alert(1)';
    const model = readTrace(
      [
        line({ type: 'message', message: { role: 'user', content: '</p><script>alert(2)</script>' } }),
        line({
          type: 'message',
          message: { role: 'assistant', content: [{ type: 'tool_use', id: `id${hostile}`, name: hostile, input: {} }] },
        }),
      ].join('\n'),
      's',
    );
    const html = renderTracePage(model);
    expect(html).not.toContain(hostile);
    expect(html).toContain('data-tool="x&quot; onmouseover=&quot;alert(1)"');
    expect(html).not.toContain('<script>alert(2)');
    // Only the page's own script runs: the policy names its nonce, and the one script carries it.
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
  });
});
