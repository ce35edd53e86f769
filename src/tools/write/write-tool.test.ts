import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../contract/services.js';
import { createFileStateStore, fileStateService, type FileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { temporaryOwner } from '../../contract/temporary-name.js';
import { editTool } from '../edit/edit-tool.js';
import { TEMPORARY_JOURNAL } from '../fs-helpers/temporary-files.js';
import { readTool } from '../read/read-tool.js';
import { writeTool } from './write-tool.js';

let folder: string;
let store: FileStateStore;
let ctx: ReturnType<typeof createFileToolContext>;
let counter = 0;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-write-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function reset() {
  store = createFileStateStore();
  ctx = createFileToolContext({ cwd: folder, store });
}

async function freshFile(content: string | Buffer): Promise<string> {
  reset();
  const file = path.join(folder, `w${counter++}.txt`);
  await writeFile(file, content);
  return file;
}

const read = (file: string, extra: Record<string, unknown> = {}) =>
  runFileTool(readTool, { file_path: file, ...extra }, ctx);
const write = (input: Record<string, unknown>) => runFileTool(writeTool, input, ctx);
const text = (result: { content: unknown }) => String(result.content);

describe('Write', () => {
  it('creates a file and its missing folders without a read', async () => {
    reset();
    const file = path.join(folder, 'new', 'deep', 'file.txt');
    const result = await write({ file_path: file, content: 'hello\nworld\n' });
    expect(text(result)).toBe(`Created ${file} (2 lines, 12 bytes).`);
    expect(await readFile(file, 'utf8')).toBe('hello\nworld\n');
    expect(store.get(file)?.partial).toBe(false);
  });

  it('overwrites a fully read file and leaves no temporary files', async () => {
    const file = await freshFile('old');
    await read(file);
    expect(text(await write({ file_path: file, content: 'new' }))).toContain('Overwrote');
    expect(await readFile(file, 'utf8')).toBe('new');
    const leftovers = (await readdir(folder)).filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('refuses to overwrite a file that was not read', async () => {
    const file = await freshFile('precious');
    const result = await write({ file_path: file, content: 'oops' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('has not been read yet');
    expect(await readFile(file, 'utf8')).toBe('precious');
  });

  it('refuses to overwrite after a partial read', async () => {
    const file = await freshFile('1\n2\n3\n');
    await read(file, { limit: 1 });
    expect(text(await write({ file_path: file, content: 'x' }))).toContain('read only part of');
    expect(await readFile(file, 'utf8')).toBe('1\n2\n3\n');
  });

  it('refuses to overwrite a file changed since the read', async () => {
    const file = await freshFile('v1');
    await read(file);
    await writeFile(file, 'v2 by someone else');
    expect(text(await write({ file_path: file, content: 'v3' }))).toContain('has changed on disk');
    expect(await readFile(file, 'utf8')).toBe('v2 by someone else');
  });

  it('keeps CRLF, BOM and mode when overwriting', async () => {
    const file = await freshFile(Buffer.from('\ufeffa\r\nb\r\n', 'utf8'));
    await chmod(file, 0o755);
    await read(file);
    await write({ file_path: file, content: 'x\ny\nz\n' });
    expect((await readFile(file)).toString('utf8')).toBe('\ufeffx\r\ny\r\nz\r\n');
    expect((await stat(file)).mode & 0o777).toBe(0o755);
  });

  it('refuses non-UTF-8 targets, directories and relative paths', async () => {
    const file = await freshFile(Buffer.from([0xc3, 0x28, 0x0a]));
    const { size, mtimeMs } = await stat(file);
    const { createHash } = await import('node:crypto');
    store.set(file, {
      hash: createHash('sha256')
        .update(Buffer.from([0xc3, 0x28, 0x0a]))
        .digest('hex'),
      size,
      mtimeMs,
      partial: false,
      recordedAtMs: 0,
    });
    expect(text(await write({ file_path: file, content: 'x' }))).toContain('neither valid UTF-8');
    expect(text(await write({ file_path: folder, content: 'x' }))).toContain('is a directory');
    expect(text(await write({ file_path: 'rel/x.txt', content: 'x' }))).toContain('absolute path');
  });

  it('fails clearly without a file-state store', async () => {
    ctx = createFileToolContext({ cwd: folder });
    expect(text(await write({ file_path: path.join(folder, 'z.txt'), content: 'x' }))).toContain('no file-state store');
  });

  it('has the runtime face of a write tool', () => {
    const input = { file_path: '/a/b.ts', content: 'x\ny' };
    expect(writeTool.isReadOnly(input)).toBe(false);
    expect(writeTool.isConcurrencySafe(input)).toBe(false);
    expect(writeTool.getPath(input)).toBe('/a/b.ts');
    expect(writeTool.describeInput(input)).toBe('/a/b.ts (2 lines)');
    expect(writeTool.describeInput({ file_path: '/a/c.ts', content: 'one' })).toBe('/a/c.ts (1 line)');
  });
});

describe('long file names', () => {
  it.for([228, 240, 254, 255])('Write creates and Edit changes a file whose name is %i bytes', async (bytes) => {
    reset();
    // Two-byte characters count as two: the limit is on bytes, not characters.
    const name = 'é'.repeat(Math.floor((bytes - 4) / 2)) + 'x'.repeat((bytes - 4) % 2) + '.txt';
    expect(Buffer.byteLength(name)).toBe(bytes);
    const file = path.join(folder, name);
    const created = await write({ file_path: file, content: 'first\n' });
    expect(created.isError, text(created)).not.toBe(true);
    const edited = await runFileTool(editTool, { file_path: file, old_string: 'first', new_string: 'second' }, ctx);
    expect(edited.isError, text(edited)).not.toBe(true);
    expect(await readFile(file, 'utf8')).toBe('second\n');
    expect((await readdir(folder)).filter((entry) => entry.endsWith('.tmp'))).toEqual([]);
  });

  it('notes each temporary file in the journal before making it', async () => {
    reset();
    const noted: string[] = [];
    const services = createServices().set(fileStateService, store);
    services.set(TEMPORARY_JOURNAL, { record: (temporary: string) => void noted.push(temporary) });
    ctx = { ...ctx, services };
    const file = path.join(folder, 'journaled.txt');
    await write({ file_path: file, content: 'a\n' });
    expect(noted).toHaveLength(1);
    expect(path.dirname(noted[0]!)).toBe(folder);
    expect(temporaryOwner(path.basename(noted[0]!))).toBe(process.pid);
  });
});
