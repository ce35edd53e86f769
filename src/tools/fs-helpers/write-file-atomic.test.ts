import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.js';

let folder: string;
const signal = new AbortController().signal;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-atomic-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const temporaries = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.tmp'));

describe('writeFileAtomic', () => {
  it('replaces a file, sets the mode and reports mtime and size', async () => {
    const file = path.join(folder, 'replace.txt');
    await writeFile(file, 'old');
    const result = await writeFileAtomic({
      path: file,
      data: Buffer.from('new!'),
      mode: 0o600,
      disposition: 'replace',
      signal,
    });
    expect(result).toMatchObject({ ok: true, size: 4 });
    const stats = await stat(file);
    expect(stats.mode & 0o777).toBe(0o600);
    expect(result.ok && result.mtimeMs).toBe(stats.mtimeMs);
    expect(await readFile(file, 'utf8')).toBe('new!');
    expect(await temporaries(folder)).toEqual([]);
  });

  it('creates without clobbering a file that appeared meanwhile', async () => {
    const file = path.join(folder, 'create.txt');
    const created = await writeFileAtomic({ path: file, data: Buffer.from('first'), disposition: 'create', signal });
    expect(created.ok).toBe(true);
    const again = await writeFileAtomic({ path: file, data: Buffer.from('second'), disposition: 'create', signal });
    expect(again).toMatchObject({ ok: false, reason: 'exists' });
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await temporaries(folder)).toEqual([]);
  });

  it('leaves the target untouched when verify refuses', async () => {
    const file = path.join(folder, 'verify.txt');
    await writeFile(file, 'keep');
    const result = await writeFileAtomic({
      path: file,
      data: Buffer.from('lose'),
      disposition: 'replace',
      signal,
      verify: async () => 'changed',
    });
    expect(result).toEqual({ ok: false, reason: 'verify-failed', message: 'changed' });
    expect(await readFile(file, 'utf8')).toBe('keep');
    expect(await temporaries(folder)).toEqual([]);
  });

  it('does nothing once aborted', async () => {
    const file = path.join(folder, 'aborted.txt');
    const controller = new AbortController();
    controller.abort();
    const result = await writeFileAtomic({
      path: file,
      data: Buffer.from('x'),
      disposition: 'create',
      signal: controller.signal,
    });
    expect(result).toMatchObject({ ok: false, reason: 'aborted' });
    await expect(stat(file)).rejects.toThrow();
  });

  it('throws the I/O error and leaves nothing behind', async () => {
    const file = path.join(folder, 'missing-folder', 'x.txt');
    await expect(
      writeFileAtomic({ path: file, data: Buffer.from('x'), disposition: 'create', signal }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.resolve(here, '../../..');
const CHILD_MODULES = [
  'src/contract/services.ts',
  'src/contract/temporary-name.ts',
  'src/tools/file-state/file-state-store.ts',
  'src/tools/file-state/commit-guarded-write.ts',
  'src/tools/file-state/file-snapshot.ts',
  'src/tools/file-state/load-guarded-file.ts',
  'src/tools/fs-helpers/file-path-checks.ts',
  'src/tools/fs-helpers/text-codec.ts',
  'src/tools/fs-helpers/write-file-atomic.ts',
];

/** Transpiles the real write path (guard + atomic write) to plain ESM a child `node` can run. */
async function buildChildModules(outDir: string): Promise<void> {
  for (const relative of CHILD_MODULES) {
    const source = await readFile(path.join(sourceRoot, relative), 'utf8');
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const target = path.join(outDir, relative.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output.outputText);
  }
  await writeFile(path.join(outDir, 'package.json'), '{"type":"module"}');
}

// The child records the file as read, then rewrites it in a loop with the real guarded write,
// alternating between two large contents, until it is killed.
const DRIVER = `
import { readFile, stat } from 'node:fs/promises';
import { createFileStateStore, hashBytes } from './src/tools/file-state/file-state-store.js';
import { loadGuardedFile } from './src/tools/file-state/load-guarded-file.js';
import { commitGuardedWrite } from './src/tools/file-state/commit-guarded-write.js';
const [file, oldPath, newPath] = process.argv.slice(2);
const contents = [await readFile(newPath), await readFile(oldPath)];
const store = createFileStateStore();
const bytes = await readFile(file);
const stats = await stat(file);
store.set(file, { hash: hashBytes(bytes), mtimeMs: stats.mtimeMs, size: stats.size, partial: false, recordedAtMs: Date.now() });
const signal = new AbortController().signal;
process.stdout.write('ready\\n');
for (let i = 0; ; i++) {
  const loaded = await loadGuardedFile({ filePath: file, store, requirement: 'full-read', signal });
  if (!loaded.ok) { process.stderr.write(loaded.message); process.exit(3); }
  const written = await commitGuardedWrite({ filePath: file, file: loaded.file, data: contents[i % 2], store, signal });
  if (!written.ok) { process.stderr.write(written.message); process.exit(4); }
}
`;

const TRIALS = 12;

describe('kill during write', () => {
  it('leaves the file old or new, never torn, when the writer is SIGKILLed at random moments', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'toolplane-kill-'));
    try {
      await buildChildModules(dir);
      await writeFile(path.join(dir, 'driver.mjs'), DRIVER);
      const oldContent = Buffer.from('old line of text\n'.repeat(120_000));
      const newContent = Buffer.from('NEW LINE, different length\n'.repeat(100_000));
      const oldPath = path.join(dir, 'old.bin');
      const newPath = path.join(dir, 'new.bin');
      await writeFile(oldPath, oldContent);
      await writeFile(newPath, newContent);
      const target = path.join(dir, 'target.txt');
      const seen = { old: 0, new: 0 };
      for (let trial = 0; trial < TRIALS; trial++) {
        await writeFile(target, oldContent);
        const child = spawn(process.execPath, [path.join(dir, 'driver.mjs'), target, oldPath, newPath], {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          child.stdout.once('data', () => resolve());
          child.once('exit', () => reject(new Error(`driver exited early: ${stderr}`)));
        });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 120));
        child.kill('SIGKILL');
        const code = await exited;
        expect(code, stderr).toBeNull();
        const final = await readFile(target);
        const isOld = final.equals(oldContent);
        const isNew = final.equals(newContent);
        expect(isOld || isNew, `trial ${trial}: ${final.length} bytes, neither old nor new`).toBe(true);
        seen[isOld ? 'old' : 'new']++;
      }
      expect(seen.old + seen.new).toBe(TRIALS);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
