import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { readTool } from '../read/read-tool.js';
import { notebookEditTool } from './notebook-edit-tool.js';

let folder: string;
let ctx: ReturnType<typeof createFileToolContext>;
let counter = 0;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-notebook-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const sample = (withIds: boolean) => ({
  cells: [
    { cell_type: 'markdown', ...(withIds ? { id: 'intro' } : {}), metadata: {}, source: ['# Title\n', 'Text'] },
    {
      cell_type: 'code',
      execution_count: 3,
      ...(withIds ? { id: 'calc' } : {}),
      metadata: { tags: ['keep'] },
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }],
      source: ['x = 1\n', 'print(x + 1)'],
    },
  ],
  metadata: { kernelspec: { name: 'python3' } },
  nbformat: 4,
  nbformat_minor: withIds ? 5 : 4,
});

async function notebookFile(options: { withIds?: boolean; read?: boolean } = {}): Promise<string> {
  ctx = createFileToolContext({ cwd: folder, store: createFileStateStore() });
  const file = path.join(folder, `nb${counter++}.ipynb`);
  await writeFile(file, `${JSON.stringify(sample(options.withIds ?? true), null, 1)}\n`);
  if (options.read ?? true) await runFileTool(readTool, { file_path: file }, ctx);
  return file;
}

const edit = (input: Record<string, unknown>) => runFileTool(notebookEditTool, input, ctx);
const load = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as ReturnType<typeof sample>;
const text = (result: { content: unknown }) => String(result.content);

describe('NotebookEdit', () => {
  it('replaces a cell source, clears its outputs and keeps its metadata and the JSON style', async () => {
    const file = await notebookFile();
    const result = await edit({ notebook_path: file, cell_id: 'calc', new_source: 'y = 2\nprint(y)' });
    expect(text(result)).toBe(`Replaced the source of cell calc in ${file} (2 cells now).`);
    const raw = await readFile(file, 'utf8');
    expect(raw.startsWith('{\n "cells": [')).toBe(true);
    expect(raw.endsWith('}\n')).toBe(true);
    const notebook = await load(file);
    expect(notebook.cells[1]).toEqual({
      cell_type: 'code',
      execution_count: null,
      id: 'calc',
      metadata: { tags: ['keep'] },
      outputs: [],
      source: ['y = 2\n', 'print(y)'],
    });
    expect(notebook.metadata).toEqual({ kernelspec: { name: 'python3' } });
  });

  it('changes a cell type on replace', async () => {
    const file = await notebookFile();
    await edit({ notebook_path: file, cell_id: 'calc', new_source: 'now prose', cell_type: 'markdown' });
    const cell = (await load(file)).cells[1];
    expect(cell).toEqual({ cell_type: 'markdown', id: 'calc', metadata: { tags: ['keep'] }, source: ['now prose'] });
  });

  it('inserts after a cell, or at the top without cell_id', async () => {
    const file = await notebookFile();
    const after = await edit({
      notebook_path: file,
      cell_id: 'intro',
      new_source: 'import os',
      cell_type: 'code',
      edit_mode: 'insert',
    });
    expect(text(after)).toMatch(/^Inserted cell [0-9a-f]{8} in .* \(3 cells now\)\.$/);
    await edit({ notebook_path: file, new_source: '# Top', cell_type: 'markdown', edit_mode: 'insert' });
    const cells = (await load(file)).cells;
    expect(cells.map((cell) => cell.source)).toEqual([
      ['# Top'],
      ['# Title\n', 'Text'],
      ['import os'],
      ['x = 1\n', 'print(x + 1)'],
    ]);
    expect(cells[2]).toMatchObject({ cell_type: 'code', execution_count: null, outputs: [], metadata: {} });
  });

  it('deletes a cell', async () => {
    const file = await notebookFile();
    expect(text(await edit({ notebook_path: file, cell_id: 'intro', new_source: '', edit_mode: 'delete' }))).toContain(
      'Deleted cell intro',
    );
    expect((await load(file)).cells.map((cell) => cell.id)).toEqual(['calc']);
  });

  it('addresses cells by position in notebooks without ids', async () => {
    const file = await notebookFile({ withIds: false });
    await edit({ notebook_path: file, cell_id: 'cell-1', new_source: 'z = 3' });
    const notebook = await load(file);
    expect(notebook.cells[1]?.source).toEqual(['z = 3']);
    expect('id' in (notebook.cells[1] ?? {})).toBe(false);
  });

  it('refuses an unknown cell id and lists the known ones', async () => {
    const file = await notebookFile();
    const result = await edit({ notebook_path: file, cell_id: 'nope', new_source: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Its cells are: intro, calc');
  });

  it('refuses insert without cell_type and replace or delete without cell_id', async () => {
    const file = await notebookFile();
    expect(text(await edit({ notebook_path: file, new_source: 'x', edit_mode: 'insert' }))).toContain('cell_type');
    expect(text(await edit({ notebook_path: file, new_source: 'x' }))).toContain('cell_id is required to replace');
    expect(text(await edit({ notebook_path: file, new_source: '', edit_mode: 'delete' }))).toContain(
      'cell_id is required to delete',
    );
  });

  it('refuses a notebook that was not read, or changed since', async () => {
    const unread = await notebookFile({ read: false });
    expect(text(await edit({ notebook_path: unread, cell_id: 'calc', new_source: 'x' }))).toContain(
      'has not been read yet',
    );
    const changed = await notebookFile();
    await writeFile(changed, JSON.stringify(sample(true)));
    expect(text(await edit({ notebook_path: changed, cell_id: 'calc', new_source: 'x' }))).toContain(
      'has changed on disk',
    );
  });

  it('refuses other files, relative paths, missing files and broken JSON', async () => {
    await notebookFile();
    expect(text(await edit({ notebook_path: path.join(folder, 'a.py'), cell_id: 'x', new_source: 'x' }))).toContain(
      'not a Jupyter notebook',
    );
    expect(text(await edit({ notebook_path: 'nb.ipynb', cell_id: 'x', new_source: 'x' }))).toContain('absolute path');
    expect(
      text(await edit({ notebook_path: path.join(folder, 'missing.ipynb'), cell_id: 'x', new_source: 'x' })),
    ).toContain('does not exist');
    const broken = path.join(folder, 'broken.ipynb');
    await writeFile(broken, '{"cells": 5}');
    await runFileTool(readTool, { file_path: broken, offset: 1 }, ctx);
    expect(text(await edit({ notebook_path: broken, cell_id: 'x', new_source: 'x' }))).toContain(
      'not a Jupyter notebook',
    );
  });

  it('has the runtime face of a write tool', () => {
    const input = { notebook_path: '/n.ipynb', cell_id: 'a', new_source: '', edit_mode: 'delete' as const };
    expect(notebookEditTool.isReadOnly(input)).toBe(false);
    expect(notebookEditTool.isConcurrencySafe(input)).toBe(false);
    expect(notebookEditTool.isDestructive(input)).toBe(true);
    expect(notebookEditTool.getPath(input)).toBe('/n.ipynb');
    expect(notebookEditTool.describeInput(input)).toBe('/n.ipynb (delete a)');
  });
});
