import { describe, expect, it } from 'vitest';
import { resumableSessions } from './resumable-sessions.js';

describe('resumableSessions', () => {
  const at = new Date('2026-12-01T10:00:00Z');
  const session = (id: string, firstPrompt: string) => ({ id, path: `/s/${id}.jsonl`, modified: at, firstPrompt });
  it('leaves out sessions without a prompt and the current one, keeping the order', () => {
    const listed = [
      session('now', 'this one'),
      session('empty', ''),
      session('blank', '  \n'),
      session('old', 'fix it'),
    ];
    expect(resumableSessions(listed, 'now').map((each) => each.id)).toEqual(['old']);
  });
});
