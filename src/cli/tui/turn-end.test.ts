import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../session/index.js';
import { EMPTY_TRANSCRIPT, reduceTranscript } from './transcript-state.js';
import { turnEnd } from './turn-end.js';

describe('turnEnd', () => {
  const error = new Error('anthropic: HTTP 401 authentication_error: invalid x-api-key');
  const failed = {
    status: 'error_during_execution',
    error,
    text: '',
    messages: [],
    turns: 1,
    usage: { inputTokens: 0, outputTokens: 0 },
    permissionDenials: [],
  } as unknown as QueryResult;

  it('adds no notice for an error the turn already showed', () => {
    const end = turnEnd(failed, { told: new Set([error]) });
    expect(end).toEqual({ type: 'turn-end', outcome: 'error', told: true });
    const running = reduceTranscript(EMPTY_TRANSCRIPT, { type: 'prompt-submit', text: 'hello' });
    expect(reduceTranscript(running, end).entries).toEqual([{ kind: 'prompt', text: 'hello' }]);
  });

  it('words an error not shown yet as the host describes it', () => {
    expect(turnEnd(failed, { describe: () => 'the API key was refused' })).toEqual({
      type: 'turn-end',
      outcome: 'error',
      message: 'The turn failed: the API key was refused',
    });
  });
});
