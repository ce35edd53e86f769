import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { configDirectory, createSessionStore, lastTodoWriteInput, projectKey } from './session-store.js';

describe('session store', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-sessions-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('finds the config folder from TOOLPLANE_CONFIG_DIR, else the home folder', () => {
    expect(configDirectory({ TOOLPLANE_CONFIG_DIR: '/x/y' }, '/home/u')).toBe('/x/y');
    expect(configDirectory({}, '/home/u')).toBe('/home/u/.toolplane');
    expect(projectKey('/work/my project')).toBe('-work-my-project');
  });

  it('writes a 0600 transcript under projects/<project>/ and reads it back', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/work/app' });
    const session = store.create('s1');
    session.appendMessage({ role: 'user', content: 'hello' });
    session.appendMessage({ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Read', input: {} }] });
    session.appendMessage({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'text' }] });
    await session.flush();
    expect(session.path).toBe(join(folder, 'projects', '-work-app', 's1.jsonl'));
    expect(session.resultsDirectory).toBe(join(folder, 'projects', '-work-app', 's1', 'tool-results'));
    expect((await stat(session.path)).mode & 0o777).toBe(0o600);
    const loaded = await store.load('s1');
    expect(loaded.cwd).toBe('/work/app');
    expect(loaded.messages).toHaveLength(3);
    expect((await store.list()).map((s) => s.id)).toEqual(['s1']);
  });

  it('loses at most a torn last line, and repairs pairing of a crash mid-turn', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/work/app' });
    const session = store.create('s2');
    session.appendMessage({ role: 'user', content: 'hello' });
    session.appendMessage({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }],
    });
    await session.flush();
    await appendFile(session.path, '{"type":"message","message":{"role":"user","con');
    const loaded = await store.load('s2');
    expect(loaded.skippedLines).toEqual([4]);
    expect(loaded.messages).toHaveLength(3);
    expect(loaded.messages[2]).toMatchObject({ role: 'user', content: [{ tool_use_id: 't', is_error: true }] });
  });

  it('keeps what is appended after resuming a transcript with a torn last line', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/work/app' });
    const session = store.create('s4');
    session.appendMessage({ role: 'user', content: 'hello' });
    await session.flush();
    await appendFile(session.path, '{"type":"message","message":{"role":"assistant","con');
    const resumed = store.reopen('s4');
    resumed.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'after the crash' }] });
    await resumed.flush();
    const loaded = await store.load('s4');
    expect(loaded.skippedLines).toEqual([3]);
    expect(loaded.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'after the crash' }] },
    ]);
  });

  it('applies a compaction line: the history restarts from its messages', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/w' });
    const session = store.create('s3');
    session.appendMessage({ role: 'user', content: 'old' });
    session.appendCompaction([{ role: 'user', content: 'summary' }]);
    session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'new' }] });
    await session.flush();
    expect((await store.load('s3')).messages).toEqual([
      { role: 'user', content: 'summary' },
      { role: 'assistant', content: [{ type: 'text', text: 'new' }] },
    ]);
    const raw = await readFile(session.path, 'utf8');
    expect(raw.split('\n')[0]).toContain('"type":"session"');
  });

  it('refuses unknown and malformed ids with a clear error', async () => {
    const store = createSessionStore({ configDir: folder, cwd: '/w' });
    await expect(store.load('nope')).rejects.toThrow(/No session nope/);
    await expect(store.load('../etc/passwd')).rejects.toThrow(ToolplaneError);
  });

  it('finds the last TodoWrite input to rebuild the todo list', () => {
    expect(
      lastTodoWriteInput([
        { role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 'TodoWrite', input: { todos: [1] } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: '1', content: 'ok' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: '2', name: 'TodoWrite', input: { todos: [2] } },
            { type: 'text', text: 'x' },
          ],
        },
      ]),
    ).toEqual({ todos: [2] });
    expect(lastTodoWriteInput([])).toBeUndefined();
  });

  it('skips a TodoWrite call whose result was an error: that list was never applied', () => {
    expect(
      lastTodoWriteInput([
        { role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 'TodoWrite', input: { todos: [1] } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: '1', content: 'ok' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: '2', name: 'TodoWrite', input: { todos: 'not a list' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: '2', content: 'InputValidationError', is_error: true }],
        },
      ]),
    ).toEqual({ todos: [1] });
  });
});
