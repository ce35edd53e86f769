import { chmod, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile, lstat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStateStore, type FileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { readTool } from '../read/read-tool.js';
import { editTool } from './edit-tool.js';

let folder: string;
let store: FileStateStore;
let ctx: ReturnType<typeof createFileToolContext>;
let counter = 0;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-edit-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function freshFile(content: string | Buffer, name = `f${counter++}.txt`): Promise<string> {
  store = createFileStateStore();
  ctx = createFileToolContext({ cwd: folder, store });
  const file = path.join(folder, name);
  await writeFile(file, content);
  return file;
}

const read = (file: string, extra: Record<string, unknown> = {}) =>
  runFileTool(readTool, { file_path: file, ...extra }, ctx);
const edit = (input: Record<string, unknown>) => runFileTool(editTool, input, ctx);
const text = (result: { content: unknown }) => String(result.content);

describe('Edit', () => {
  it('replaces a unique string after a read and shows the changed region', async () => {
    const file = await freshFile('one\ntwo\nthree\n');
    await read(file);
    const result = await edit({ file_path: file, old_string: 'two', new_string: 'TWO' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain('     2\tTWO');
    expect(await readFile(file, 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('allows a second edit without a new read (its own write is recorded)', async () => {
    const file = await freshFile('a b c');
    await read(file);
    await edit({ file_path: file, old_string: 'a', new_string: 'A' });
    const second = await edit({ file_path: file, old_string: 'c', new_string: 'C' });
    expect(second.isError).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('A b C');
  });

  it('refuses a file that was not read', async () => {
    const file = await freshFile('content');
    const result = await edit({ file_path: file, old_string: 'content', new_string: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('has not been read yet. Read it first');
    expect(await readFile(file, 'utf8')).toBe('content');
  });

  it('accepts a partial read', async () => {
    const file = await freshFile('l1\nl2\nl3\nl4\n');
    await read(file, { offset: 3, limit: 1 });
    expect((await edit({ file_path: file, old_string: 'l1', new_string: 'L1' })).isError).toBeUndefined();
  });

  it('refuses a stale file even when old_string still matches', async () => {
    const file = await freshFile('keep this line\nchange me\n');
    await read(file);
    await writeFile(file, 'keep this line\nchange me\nsomeone added this\n');
    const result = await edit({ file_path: file, old_string: 'change me', new_string: 'changed' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('has changed on disk since you last read it');
    expect(await readFile(file, 'utf8')).toBe('keep this line\nchange me\nsomeone added this\n');
  });

  it('refuses when only the mtime moved (touched since the read)', async () => {
    const file = await freshFile('same');
    await read(file);
    const future = new Date(Date.now() + 60_000);
    await utimes(file, future, future);
    expect(text(await edit({ file_path: file, old_string: 'same', new_string: 'other' }))).toContain(
      'has changed on disk',
    );
  });

  it('refuses a missing old_string, hinting at line-number prefixes', async () => {
    const file = await freshFile('alpha\nbeta\n');
    await read(file);
    const missing = await edit({ file_path: file, old_string: 'gamma', new_string: 'x' });
    expect(text(missing)).toContain('old_string was not found');
    const prefixed = await edit({ file_path: file, old_string: '     1\talpha', new_string: 'x' });
    expect(text(prefixed)).toContain('line-number prefix');
  });

  it('matches CRLF lines of a mixed-ending file when told how, and keeps the other endings', async () => {
    const file = await freshFile('one\r\ntwo\r\nthree\nfour\n');
    await read(file);
    const plain = await edit({ file_path: file, old_string: 'one\ntwo', new_string: 'ONE\nTWO' });
    expect(text(plain)).toContain('mixes CRLF and LF');
    const exact = await edit({ file_path: file, old_string: 'one\r\ntwo', new_string: 'ONE\r\nTWO' });
    expect(exact.isError).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('ONE\r\nTWO\r\nthree\nfour\n');
  });

  it('refuses multiple matches without replace_all and says how many', async () => {
    const file = await freshFile('x = 1\nx = 1\nx = 1\n');
    await read(file);
    const result = await edit({ file_path: file, old_string: 'x = 1', new_string: 'x = 2' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('matches 3 times');
    expect(text(result)).toContain('replace_all');
    const all = await edit({ file_path: file, old_string: 'x = 1', new_string: 'x = 2', replace_all: true });
    expect(text(all)).toContain('3 replacements');
    expect(await readFile(file, 'utf8')).toBe('x = 2\nx = 2\nx = 2\n');
  });

  it('refuses old_string equal to new_string', async () => {
    const file = await freshFile('same');
    await read(file);
    expect(text(await edit({ file_path: file, old_string: 'same', new_string: 'same' }))).toContain('identical');
  });

  it('treats replacement text literally ($& and $1 are not patterns)', async () => {
    const file = await freshFile('price');
    await read(file);
    await edit({ file_path: file, old_string: 'price', new_string: '$& $1 $$' });
    expect(await readFile(file, 'utf8')).toBe('$& $1 $$');
  });

  it('keeps CRLF line endings, the BOM and the mode', async () => {
    const file = await freshFile(Buffer.from('\ufeffline one\r\nline two\r\n', 'utf8'));
    await chmod(file, 0o640);
    await read(file);
    const result = await edit({
      file_path: file,
      old_string: 'line one\nline two',
      new_string: 'first\nsecond\nthird',
    });
    expect(result.isError).toBeUndefined();
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3).toString('utf8')).toBe('first\r\nsecond\r\nthird\r\n');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('keeps UTF-16 LE with its BOM', async () => {
    const file = await freshFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('grüße\n', 'utf16le')]));
    await read(file);
    await edit({ file_path: file, old_string: 'grüße', new_string: 'hallo' });
    expect(await readFile(file)).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hallo\n', 'utf16le')]));
  });

  it('refuses a file that is neither UTF-8 nor UTF-16 with a BOM', async () => {
    const original = Buffer.from('caf\xe9', 'latin1');
    const file = await freshFile(original);
    const realPath = file;
    const { size, mtimeMs } = await stat(file);
    const { createHash } = await import('node:crypto');
    // Record it as read, as if a host had read it some other way; the edit must still refuse.
    store.set(realPath, {
      hash: createHash('sha256').update(original).digest('hex'),
      size,
      mtimeMs,
      partial: false,
      recordedAtMs: Date.now(),
    });
    const result = await edit({ file_path: file, old_string: 'caf', new_string: 'tea' });
    expect(text(result)).toContain('neither valid UTF-8 nor UTF-16');
    expect(await readFile(file)).toEqual(original);
  });

  it('rejects relative paths, directories and missing files', async () => {
    await freshFile('x');
    expect(text(await edit({ file_path: 'x.txt', old_string: 'a', new_string: 'b' }))).toContain('absolute path');
    expect(text(await edit({ file_path: folder, old_string: 'a', new_string: 'b' }))).toContain('is a directory');
    expect(text(await edit({ file_path: path.join(folder, 'nope.txt'), old_string: 'a', new_string: 'b' }))).toContain(
      'does not exist',
    );
  });

  it('creates a new file from an empty old_string, but not over an existing one', async () => {
    await freshFile('x');
    const created = path.join(folder, 'sub', 'dir', 'new.txt');
    const result = await edit({ file_path: created, old_string: '', new_string: 'hello\n' });
    expect(text(result)).toContain('Created');
    expect(await readFile(created, 'utf8')).toBe('hello\n');
    const file = await freshFile('existing');
    await read(file);
    expect(text(await edit({ file_path: file, old_string: '', new_string: 'x' }))).toContain('already has content');
  });

  it('refuses a read-only file', async () => {
    const file = await freshFile('locked');
    await chmod(file, 0o444);
    await read(file);
    expect(text(await edit({ file_path: file, old_string: 'locked', new_string: 'open' }))).toContain('not writable');
  });

  it('edits the target of a symbolic link and keeps the link', async () => {
    const target = await freshFile('through link');
    const link = path.join(folder, `link${counter++}.txt`);
    await symlink(target, link);
    await read(link);
    expect((await edit({ file_path: link, old_string: 'through', new_string: 'via' })).isError).toBeUndefined();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('via link');
  });

  it('fails clearly without a file-state store', async () => {
    const file = await freshFile('x');
    ctx = createFileToolContext({ cwd: folder });
    expect(text(await edit({ file_path: file, old_string: 'x', new_string: 'y' }))).toContain('no file-state store');
  });

  it('has the runtime face of a write tool', () => {
    const input = { file_path: '/a/b.ts', old_string: 'x', new_string: 'y', replace_all: false };
    expect(editTool.isReadOnly(input)).toBe(false);
    expect(editTool.isConcurrencySafe(input)).toBe(false);
    expect(editTool.getPath(input)).toBe('/a/b.ts');
    expect(editTool.userFacingName(input)).toBe('Update');
    expect(editTool.userFacingName({ ...input, old_string: '' })).toBe('Create');
  });
});
