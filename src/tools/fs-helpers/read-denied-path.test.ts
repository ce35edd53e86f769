import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolContext } from './file-tool-harness.js';
import { READ_DENIED_PATH } from './read-denied-path.js';
import { grepTool } from '../grep/grep-tool.js';
import { globTool } from '../glob/glob-tool.js';

describe('read deny rules reach Grep and Glob results', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-withheld-'));
    await writeFile(join(folder, '.env'), 'API_KEY=secret-value\n');
    await writeFile(join(folder, 'config.ts'), 'export const API_KEY = process.env.API_KEY;\n');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  function context(deny: boolean) {
    const base = createFileToolContext({ cwd: folder });
    if (deny)
      (base.services as unknown as { set: (key: unknown, value: unknown) => void }).set(
        READ_DENIED_PATH,
        (path: string) => path === join(folder, '.env'),
      );
    return base;
  }

  for (const mode of ['content', 'files_with_matches', 'count'] as const) {
    it(`Grep (${mode}) leaves out files a deny rule covers, and says so`, async () => {
      const open = grepTool.mapResult(
        await grepTool.call({ pattern: 'API_KEY', output_mode: mode }, context(false)),
        'x',
      ).content as string;
      expect(open).toContain('.env');
      const guarded = grepTool.mapResult(
        await grepTool.call({ pattern: 'API_KEY', output_mode: mode }, context(true)),
        'x',
      ).content as string;
      expect(guarded).not.toContain('secret-value');
      expect(guarded).not.toContain(join(folder, '.env'));
      expect(guarded).toContain('config.ts');
      expect(guarded).toContain('1 file was left out: permission rules deny reading it.');
    });
  }

  it('Grep content lines keep their usual path:line:text shape when filtered', async () => {
    const guarded = grepTool.mapResult(
      await grepTool.call({ pattern: 'API_KEY', output_mode: 'content' }, context(true)),
      'x',
    ).content as string;
    expect(guarded.split('\n')[0]).toBe(`${join(folder, 'config.ts')}:1:export const API_KEY = process.env.API_KEY;`);
  });

  it('Glob leaves them out too', async () => {
    const guarded = globTool.mapResult(await globTool.call({ pattern: '*', path: folder }, context(true)), 'x')
      .content as string;
    expect(guarded).toContain('config.ts');
    expect(guarded).not.toContain(join(folder, '.env'));
    expect(guarded).toContain('1 file was left out');
  });
});

describe('process secrets', () => {
  it("Read refuses a process's environment and memory, also through a symlink", async () => {
    const { readTool } = await import('../read/read-tool.js');
    const { createFileStateStore } = await import('../file-state/file-state-store.js');
    const { symlink, mkdtemp: makeTemp, rm: remove } = await import('node:fs/promises');
    const folder = await makeTemp(join(tmpdir(), 'toolplane-secret-'));
    try {
      const context = createFileToolContext({ cwd: folder, store: createFileStateStore() });
      for (const target of ['/proc/self/environ', `/proc/${process.pid}/environ`, '/proc/self/task/1/mem']) {
        expect(await readTool.validateInput({ file_path: target }, context)).toMatchObject({
          ok: false,
          message: expect.stringContaining('holds credentials'),
        });
      }
      await symlink('/proc/self/environ', join(folder, 'innocent.txt'));
      const mapped = readTool.mapResult(await readTool.call({ file_path: join(folder, 'innocent.txt') }, context), 'x');
      expect(mapped.isError).toBe(true);
      expect(String(mapped.content)).toContain('holds credentials');
      expect(String(mapped.content)).not.toContain('PATH=');
    } finally {
      await remove(folder, { recursive: true, force: true });
    }
  });
});
