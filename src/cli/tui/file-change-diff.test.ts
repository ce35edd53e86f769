import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffTexts, fileChangeDiff, readCurrentText } from './file-change-diff.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolplane-tui-diff-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('diffTexts', () => {
  it('marks removed and added lines', () => {
    expect(diffTexts('a\nb\n', 'a\nc\n')).toEqual([
      { kind: 'context', text: 'a' },
      { kind: 'remove', text: 'b' },
      { kind: 'add', text: 'c' },
    ]);
  });

  it('keeps two unchanged lines around a change and marks the rest as skipped', () => {
    const before = Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n');
    const after = before.replace('line 5', 'line five');
    const lines = diffTexts(before, after);
    expect(lines[0]).toEqual({ kind: 'context', text: '…' });
    expect(lines.filter((line) => line.kind === 'context' && line.text !== '…').map((line) => line.text)).toEqual([
      'line 3',
      'line 4',
      'line 6',
      'line 7',
    ]);
    expect(lines.at(-1)).toEqual({ kind: 'context', text: '…' });
  });

  it('identical texts give only context', () => {
    expect(diffTexts('same', 'same').every((line) => line.kind === 'context')).toBe(true);
  });
});

describe('fileChangeDiff', () => {
  const never = () => {
    throw new Error('must not read');
  };

  it('Edit: old_string → new_string, without reading the file', () => {
    const diff = fileChangeDiff({
      toolName: 'Edit',
      input: { file_path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2' },
      readCurrent: never,
    });
    expect(diff).toEqual([
      { kind: 'remove', text: 'x = 1' },
      { kind: 'add', text: 'x = 2' },
    ]);
  });

  it('Write: against the current content, or all new lines for a new file', () => {
    const over = fileChangeDiff({
      toolName: 'Write',
      input: { file_path: 'a.txt', content: 'one\nTWO\n' },
      readCurrent: () => 'one\ntwo\n',
    });
    expect(over).toEqual([
      { kind: 'context', text: 'one' },
      { kind: 'remove', text: 'two' },
      { kind: 'add', text: 'TWO' },
    ]);
    const fresh = fileChangeDiff({
      toolName: 'Write',
      input: { file_path: 'b.txt', content: 'new\nfile\n' },
      readCurrent: () => undefined,
    });
    expect(fresh).toEqual([
      { kind: 'add', text: 'new' },
      { kind: 'add', text: 'file' },
    ]);
  });

  it('nothing for other tools or input of the wrong shape', () => {
    expect(fileChangeDiff({ toolName: 'Read', input: { file_path: 'a' }, readCurrent: never })).toBeUndefined();
    expect(fileChangeDiff({ toolName: 'Edit', input: null, readCurrent: never })).toBeUndefined();
    expect(
      fileChangeDiff({ toolName: 'Edit', input: { old_string: 1, new_string: 'x' }, readCurrent: never }),
    ).toBeUndefined();
    expect(fileChangeDiff({ toolName: 'Write', input: { file_path: 'a' }, readCurrent: never })).toBeUndefined();
    expect(fileChangeDiff({ toolName: 'Write', input: 'text', readCurrent: never })).toBeUndefined();
  });
});

describe('readCurrentText', () => {
  it('reads a file by absolute or relative path', async () => {
    await writeFile(join(folder, 'a.txt'), 'hello');
    expect(readCurrentText(join(folder, 'a.txt'), '/')).toBe('hello');
    expect(readCurrentText('a.txt', folder)).toBe('hello');
  });

  it('undefined for a missing file, a folder, or a file too large to show', async () => {
    await mkdir(join(folder, 'sub'));
    await writeFile(join(folder, 'big.txt'), Buffer.alloc(1_000_001, 'a'));
    expect(readCurrentText('missing.txt', folder)).toBeUndefined();
    expect(readCurrentText('sub', folder)).toBeUndefined();
    expect(readCurrentText('big.txt', folder)).toBeUndefined();
  });
});
