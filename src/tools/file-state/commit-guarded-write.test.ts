import { writeSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitGuardedWrite } from './commit-guarded-write.js';
import { createFileStateStore, hashBytes, type FileStateStore } from './file-state-store.js';
import { loadGuardedFile } from './load-guarded-file.js';

let folder: string;
const signal = new AbortController().signal;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-commit-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function recordAsRead(store: FileStateStore, file: string): Promise<void> {
  const bytes = await readFile(file);
  const stats = await stat(file);
  store.set(file, {
    hash: hashBytes(bytes),
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    partial: false,
    recordedAtMs: Date.now(),
  });
}

describe('commitGuardedWrite', () => {
  it('refuses when the record was dropped after the load (the host invalidated it)', async () => {
    const file = path.join(folder, 'dropped.txt');
    await writeFile(file, 'v1');
    const store = createFileStateStore();
    await recordAsRead(store, file);
    const loaded = await loadGuardedFile({ filePath: file, store, requirement: 'full-read', signal });
    if (!loaded.ok) throw new Error(loaded.message);
    store.delete(file);
    const result = await commitGuardedWrite({
      filePath: file,
      file: loaded.file,
      data: Buffer.from('v2'),
      store,
      signal,
    });
    expect(result).toMatchObject({ ok: false });
    expect(await readFile(file, 'utf8')).toBe('v1');
  });

  it('refuses when the file was deleted after the load', async () => {
    const file = path.join(folder, 'deleted.txt');
    await writeFile(file, 'v1');
    const store = createFileStateStore();
    await recordAsRead(store, file);
    const loaded = await loadGuardedFile({ filePath: file, store, requirement: 'full-read', signal });
    if (!loaded.ok) throw new Error(loaded.message);
    await rm(file);
    const result = await commitGuardedWrite({
      filePath: file,
      file: loaded.file,
      data: Buffer.from('v2'),
      store,
      signal,
    });
    expect(result.ok === false && result.message).toContain('was deleted since you read it');
  });

  it('refuses to create a file someone else created after the load', async () => {
    const file = path.join(folder, 'raced-create.txt');
    const store = createFileStateStore();
    const loaded = await loadGuardedFile({ filePath: file, store, requirement: 'full-read', signal });
    if (!loaded.ok) throw new Error(loaded.message);
    expect(loaded.file.exists).toBe(false);
    await writeFile(file, 'theirs');
    const result = await commitGuardedWrite({
      filePath: file,
      file: loaded.file,
      data: Buffer.from('mine'),
      store,
      signal,
    });
    expect(result.ok === false && result.message).toContain('created by another process');
    expect(await readFile(file, 'utf8')).toBe('theirs');
  });

  it('reports, with a saved copy, a write that landed in the replaced file after the rename', async () => {
    const file = path.join(folder, 'late-writer.txt');
    await writeFile(file, 'original\n');
    // An editor-like writer that opened the file before our rename and writes after it. The
    // store's `set` runs right after the rename, which is where the late write is injected.
    const lateWriter = await open(file, 'a');
    const inner = createFileStateStore();
    await recordAsRead(inner, file);
    let armed = false;
    const store: FileStateStore = {
      ...inner,
      set(filePath, record) {
        inner.set(filePath, record);
        if (armed) writeSync(lateWriter.fd, 'late line\n');
      },
    };
    try {
      const loaded = await loadGuardedFile({ filePath: file, store, requirement: 'full-read', signal });
      if (!loaded.ok) throw new Error(loaded.message);
      armed = true;
      const result = await commitGuardedWrite({
        filePath: file,
        file: loaded.file,
        data: Buffer.from('rewritten\n'),
        store,
        signal,
      });
      if (!result.ok) throw new Error(result.message);
      expect(await readFile(file, 'utf8')).toBe('rewritten\n');
      const savedAt = result.concurrentWrite?.savedAt;
      expect(savedAt).toBeDefined();
      expect(await readFile(savedAt ?? '', 'utf8')).toBe('original\nlate line\n');
      await rm(savedAt ?? '', { force: true });
    } finally {
      await lateWriter.close();
    }
  });
});
