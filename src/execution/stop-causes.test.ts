import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { assembleToolPool } from '../pool/assemble-tool-pool.js';
import { queuedEntry, type CallEntry } from './call-entry.js';
import { prepareCall } from './prepare-call.js';
import { cancelsSibling, isFailure, stopOutcome } from './stop-causes.js';
import type { ToolCallOutcome } from './types.js';

const cancelling = defineTool({
  name: 'Cancelling',
  inputSchema: z.object({}),
  prompt: 'x',
  errorCancelsSiblings: true,
  call: async () => 'x',
});
const quiet = defineTool({ name: 'Quiet', inputSchema: z.object({}), prompt: 'x', call: async () => 'x' });
const pool = assembleToolPool({ builtins: [cancelling, quiet] });

function entry(id: string, name: string, state: CallEntry['state'] = 'queued'): CallEntry {
  const created = queuedEntry(prepareCall({ type: 'tool_use', id, name, input: {} }, { pool }));
  created.state = state;
  return created;
}

const failed: ToolCallOutcome = { status: 'failed', message: 'boom' };

describe('the cancel decision', () => {
  it('a failing call of a tool that cancels siblings cancels each unfinished other call', () => {
    const failing = entry('a', 'Cancelling', 'done');
    expect(cancelsSibling({ entry: failing, outcome: failed }, entry('b', 'Quiet'))).toBe(true);
    expect(cancelsSibling({ entry: failing, outcome: failed }, entry('c', 'Quiet', 'running'))).toBe(true);
  });

  it('never the call itself, an answered sibling, a success, or a tool that does not cancel', () => {
    const failing = entry('a', 'Cancelling', 'done');
    expect(cancelsSibling({ entry: failing, outcome: failed }, failing)).toBe(false);
    expect(cancelsSibling({ entry: failing, outcome: failed }, entry('b', 'Quiet', 'done'))).toBe(false);
    expect(
      cancelsSibling({ entry: failing, outcome: { status: 'success', isError: false } }, entry('b', 'Quiet')),
    ).toBe(false);
    expect(cancelsSibling({ entry: entry('q', 'Quiet', 'done'), outcome: failed }, entry('b', 'Quiet'))).toBe(false);
  });

  it('counts failures, time-outs and error results as failures, not denials', () => {
    expect(isFailure({ status: 'timeout', timeoutMs: 5 })).toBe(true);
    expect(isFailure({ status: 'success', isError: true })).toBe(true);
    expect(isFailure({ status: 'denied', message: '', reason: { kind: 'default', message: '' } })).toBe(false);
  });

  it('answers each stop cause with its own outcome', () => {
    expect(stopOutcome({ kind: 'sibling-failed', byToolUseId: 'a' })).toEqual({
      status: 'cancelled',
      byToolUseId: 'a',
    });
    expect(stopOutcome({ kind: 'run-stopped', cause: 'interrupt' })).toEqual({ status: 'aborted', cause: 'interrupt' });
    expect(stopOutcome({ kind: 'timeout', timeoutMs: 3 })).toEqual({ status: 'timeout', timeoutMs: 3 });
  });
});
