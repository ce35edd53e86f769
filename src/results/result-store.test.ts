import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResultStore } from './result-store.js';

describe('result store', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-results-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('tries to create its folder again after a failure', async () => {
    const blocker = join(folder, 'session');
    await writeFile(blocker, 'a file where the session folder should be');
    const store = createResultStore({ directory: join(blocker, 'tool-results') });
    await expect(store.save('toolu_1', 'first')).rejects.toThrow();
    await rm(blocker);
    const path = await store.save('toolu_2', 'second');
    expect(await readFile(path, 'utf8')).toBe('second');
  });
});
