import { z } from 'zod';

/**
 * The parts of the Jupyter notebook format (nbformat 4) the file tools read and change. Other
 * fields are kept as they are (passthrough), so rewriting a notebook loses nothing.
 */

const sourceSchema = z.union([z.string(), z.array(z.string())]);

const cellSchema = z.looseObject({
  cell_type: z.string(),
  id: z.string().optional(),
  source: sourceSchema,
  outputs: z.array(z.unknown()).optional(),
  execution_count: z.number().nullable().optional(),
});

const notebookSchema = z.looseObject({
  cells: z.array(cellSchema),
  metadata: z.looseObject({}).optional(),
  nbformat: z.number().optional(),
  nbformat_minor: z.number().optional(),
});

/** One notebook cell as parsed (unknown fields kept). */
export type NotebookCell = z.infer<typeof cellSchema>;

/** A parsed notebook (unknown fields kept). */
export type Notebook = z.infer<typeof notebookSchema>;

/** Parses notebook JSON text; the error message is for the model. */
export function parseNotebook(
  text: string,
): { readonly ok: true; readonly notebook: Notebook } | { readonly ok: false; readonly message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = notebookSchema.safeParse(json);
  if (!parsed.success) return { ok: false, message: 'it is JSON but not a Jupyter notebook (no valid "cells" array)' };
  // The checked original, not the parser's copy: rewriting must keep every key in its order.
  return { ok: true, notebook: json as Notebook };
}

/** The id the tools use for a cell: its own `id`, or `cell-<index>` for notebooks without ids. */
export function notebookCellId(cell: NotebookCell, index: number): string {
  return cell.id ?? `cell-${index}`;
}

/** A cell's source as one string. */
export function notebookCellSource(cell: NotebookCell): string {
  return typeof cell.source === 'string' ? cell.source : cell.source.join('');
}

/** Splits source text into nbformat's list of lines, each keeping its line break. */
export function toNotebookSource(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.filter((line) => line.length > 0);
}

/** Finds a cell by id (or by `cell-<index>`); -1 when there is none. */
export function findNotebookCell(notebook: Notebook, cellId: string): number {
  const byId = notebook.cells.findIndex((cell) => cell.id === cellId);
  if (byId !== -1) return byId;
  const match = /^cell-(\d+)$/.exec(cellId);
  if (match?.[1] !== undefined) {
    const index = Number(match[1]);
    const cell = notebook.cells[index];
    if (cell !== undefined && cell.id === undefined) return index;
  }
  return -1;
}

/**
 * Serialises a notebook the way Jupyter does (JSON with a one-space indent and a final newline),
 * or with the indent the file already used.
 */
export function serializeNotebook(notebook: Notebook, indent: number): string {
  return `${JSON.stringify(notebook, null, indent)}\n`;
}

/** The indent width of a JSON text (1 when it cannot tell, Jupyter's default). */
export function detectJsonIndent(text: string): number {
  const match = /^\{\r?\n( +)"/.exec(text);
  return match?.[1]?.length ?? 1;
}
