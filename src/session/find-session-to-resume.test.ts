import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../loop/session-store.js';
import { findSessionToResume } from './find-session-to-resume.js';

let root: string;
let sessions: SessionStore;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-resume-'));
  sessions = createSessionStore({ configDir: join(root, 'config'), cwd: join(root, 'project') });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function recorded(prompt: string, modified: Date): Promise<string> {
  const session = sessions.create();
  session.appendMessage({ role: 'user', content: [{ type: 'text', text: prompt }] });
  await session.flush();
  await utimes(session.path, modified, modified);
  return session.id;
}

describe('findSessionToResume', () => {
  it('starts a new session when asked for nothing', async () => {
    await recorded('earlier', new Date());
    expect(await findSessionToResume(sessions, {})).toBeUndefined();
  });

  it('takes the id given, and otherwise the most recent session to continue', async () => {
    const older = await recorded('first', new Date('2026-01-01T00:00:00Z'));
    const newer = await recorded('second', new Date('2026-02-01T00:00:00Z'));
    expect(await findSessionToResume(sessions, { continueLatest: true })).toBe(newer);
    expect(await findSessionToResume(sessions, { resume: older, continueLatest: true })).toBe(older);
  });

  it('continues the most recent session that has a prompt, past newer empty ones', async () => {
    const prompted = await recorded('real work', new Date('2026-01-01T00:00:00Z'));
    const empty = sessions.create();
    empty.appendEvent({ type: 'nothing' });
    await empty.flush();
    expect(await findSessionToResume(sessions, { continueLatest: true })).toBe(prompted);
  });

  it('says so when there is no earlier session to continue', async () => {
    await expect(findSessionToResume(sessions, { continueLatest: true })).rejects.toMatchObject({
      code: 'SESSION_CORRUPT',
      message: 'There is no earlier session in this folder to continue.',
    });
  });
});
