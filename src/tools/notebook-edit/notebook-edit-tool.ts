import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool, ToolCheckContext } from '../../contract/tool.js';
import { planAndCommit, validateByPlan } from '../file-state/guarded-write-steps.js';
import { fileStateService, getFileStateStore, NO_FILE_STATE_STORE_MESSAGE } from '../file-state/file-state-store.js';
import { loadGuardedFile, type GuardedFile } from '../file-state/load-guarded-file.js';
import { checkAbsolutePath } from '../fs-helpers/file-path-checks.js';
import {
  detectJsonIndent,
  findNotebookCell,
  notebookCellId,
  parseNotebook,
  serializeNotebook,
  toNotebookSource,
  type Notebook,
  type NotebookCell,
} from '../fs-helpers/notebook.js';
import { encodeText } from '../fs-helpers/text-codec.js';
import { mapToolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { NOTEBOOK_EDIT_PROMPT } from './notebook-edit-prompt.js';

/** NotebookEdit's input; the names are the reference system's. */
export const notebookEditInputSchema = z.strictObject({
  notebook_path: z.string().describe('The absolute path of the .ipynb notebook'),
  cell_id: z
    .string()
    .optional()
    .describe('The id of the cell to replace or delete, or to insert after. Omit to insert at the top'),
  new_source: z.string().describe('The new source of the cell'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('The cell type. Required for insert; for replace, changes the type'),
  edit_mode: z
    .enum(['replace', 'insert', 'delete'])
    .optional()
    .default('replace')
    .describe('replace (default), insert or delete'),
});

/** NotebookEdit's input. */
export type NotebookEditInput = z.infer<typeof notebookEditInputSchema>;

/** What NotebookEdit returns. */
export type NotebookEditOutput =
  | {
      readonly kind: 'notebook-edited';
      readonly filePath: string;
      readonly editMode: NotebookEditInput['edit_mode'];
      readonly cellId: string;
      readonly cellCount: number;
      readonly warning?: string;
    }
  | ToolFailure;

type NotebookPlan = {
  readonly ok: true;
  readonly file: GuardedFile;
  readonly data: Buffer;
  readonly cellId: string;
  readonly cellCount: number;
};

async function plan(
  input: NotebookEditInput,
  context: ToolCheckContext,
): Promise<NotebookPlan | { ok: false; message: string }> {
  const filePath = input.notebook_path;
  const problem = checkAbsolutePath(filePath, 'notebook_path');
  if (problem !== undefined) return { ok: false, message: problem };
  if (path.extname(filePath).toLowerCase() !== '.ipynb') {
    return { ok: false, message: `${filePath} is not a Jupyter notebook (.ipynb). Use Edit for other files.` };
  }
  const store = getFileStateStore(context.services);
  if (store === undefined) return { ok: false, message: NO_FILE_STATE_STORE_MESSAGE };
  const loaded = await loadGuardedFile({ filePath, store, requirement: 'any-read', signal: context.signal });
  if (!loaded.ok) return loaded;
  const file = loaded.file;
  if (!file.exists)
    return {
      ok: false,
      message: `${filePath} does not exist. To create a notebook, use Write with the notebook's JSON.`,
    };
  const parsed = parseNotebook(file.text);
  if (!parsed.ok)
    return {
      ok: false,
      message: `${filePath} cannot be edited as a notebook: ${parsed.message}. Use Edit on its text instead.`,
    };
  const edited = applyCellEdit(parsed.notebook, input);
  if (!edited.ok) return edited;
  const serialized = serializeNotebook(edited.notebook, detectJsonIndent(file.text));
  const text = file.text.endsWith('\n') ? serialized : serialized.slice(0, -1);
  return {
    ok: true,
    file,
    data: encodeText(text, file.format),
    cellId: edited.cellId,
    cellCount: edited.notebook.cells.length,
  };
}

function applyCellEdit(
  notebook: Notebook,
  input: NotebookEditInput,
): { ok: true; notebook: Notebook; cellId: string } | { ok: false; message: string } {
  const cells = [...notebook.cells];
  let index = -1;
  if (input.cell_id !== undefined) {
    index = findNotebookCell(notebook, input.cell_id);
    if (index === -1) {
      const known = cells.slice(0, 20).map((cell, position) => notebookCellId(cell, position));
      const list =
        known.length > 0
          ? ` Its cells are: ${known.join(', ')}${cells.length > 20 ? ', …' : ''}.`
          : ' It has no cells.';
      return {
        ok: false,
        message: `No cell with id ${JSON.stringify(input.cell_id)} in ${input.notebook_path}.${list} Read the notebook to see the ids.`,
      };
    }
  }
  const mode = input.edit_mode;
  switch (mode) {
    case 'insert': {
      if (input.cell_type === undefined)
        return { ok: false, message: 'cell_type ("code" or "markdown") is required to insert a cell.' };
      const withIds =
        cells.some((cell) => cell.id !== undefined) ||
        (notebook.nbformat ?? 4) > 4 ||
        (notebook.nbformat === 4 && (notebook.nbformat_minor ?? 0) >= 5);
      const id = withIds ? randomBytes(4).toString('hex') : undefined;
      // Keys in alphabetical order, as Jupyter writes them.
      const cell: NotebookCell = {
        cell_type: input.cell_type,
        ...(input.cell_type === 'code' ? { execution_count: null } : {}),
        ...(id !== undefined ? { id } : {}),
        metadata: {},
        ...(input.cell_type === 'code' ? { outputs: [] } : {}),
        source: toNotebookSource(input.new_source),
      };
      cells.splice(index + 1, 0, cell);
      return { ok: true, notebook: { ...notebook, cells }, cellId: id ?? `cell-${index + 1}` };
    }
    case 'replace':
    case 'delete': {
      const target = cells[index];
      if (input.cell_id === undefined || target === undefined)
        return { ok: false, message: `cell_id is required to ${mode} a cell. Read the notebook to see the ids.` };
      if (mode === 'delete') {
        cells.splice(index, 1);
        return { ok: true, notebook: { ...notebook, cells }, cellId: input.cell_id };
      }
      const cellType = input.cell_type ?? target.cell_type;
      // A copy that keeps the cell's keys in their order; outputs belong to the old source.
      const replaced: NotebookCell = { ...target, cell_type: cellType, source: toNotebookSource(input.new_source) };
      if (cellType === 'code') {
        replaced.execution_count = null;
        replaced.outputs = [];
      } else {
        delete replaced.execution_count;
        delete replaced.outputs;
      }
      cells[index] = replaced;
      return { ok: true, notebook: { ...notebook, cells }, cellId: input.cell_id };
    }
  }
}

/**
 * The NotebookEdit tool: replaces, inserts or deletes one notebook cell under the same read guard
 * as Edit, rewriting the notebook atomically and keeping its other content and its JSON indent.
 */
export const notebookEditTool: Tool<NotebookEditInput, NotebookEditOutput> = defineBuiltinTool<
  NotebookEditInput,
  NotebookEditOutput
>('NotebookEdit', {
  name: 'NotebookEdit',
  services: [fileStateService],
  inputSchema: notebookEditInputSchema,
  prompt: NOTEBOOK_EDIT_PROMPT,
  searchHint: 'jupyter notebook ipynb cell edit insert delete',
  maxResultSizeChars: 100_000,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  isDestructive: (input) => input.edit_mode === 'delete',
  userFacingName: () => 'Edit Notebook',
  getPath: (input) => input.notebook_path,
  describeInput: (input) =>
    `${input.notebook_path} (${input.edit_mode}${input.cell_id !== undefined ? ` ${input.cell_id}` : ''})`,
  validateInput: validateByPlan(plan),
  call: (input, context) =>
    planAndCommit({
      input,
      context,
      filePath: input.notebook_path,
      plan,
      done: (result) => ({
        kind: 'notebook-edited',
        filePath: input.notebook_path,
        editMode: input.edit_mode,
        cellId: result.cellId,
        cellCount: result.cellCount,
      }),
    }),
  mapResult: (output): MappedResult => {
    if (output.kind === 'error') return mapToolFailure(output);
    const verb =
      output.editMode === 'insert'
        ? 'Inserted cell'
        : output.editMode === 'delete'
          ? 'Deleted cell'
          : 'Replaced the source of cell';
    const warning = output.warning !== undefined ? `\n\n${output.warning}` : '';
    return { content: `${verb} ${output.cellId} in ${output.filePath} (${output.cellCount} cells now).${warning}` };
  },
});
