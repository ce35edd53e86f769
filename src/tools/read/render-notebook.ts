import type { ToolResultContentBlock } from '../../messages/types.js';
import { notebookCellId, notebookCellSource, type Notebook } from '../fs-helpers/notebook.js';

const MAX_OUTPUT_CHARS = 10_000;
const ANSI_PATTERN = /\u001b\[[0-9;]*[A-Za-z]/g;

/**
 * Renders a notebook for the model: each cell as `<cell id="…" type="…">source</cell>`, followed
 * by its outputs (stream text, results, errors as text; PNG and JPEG outputs as image blocks).
 */
export function renderNotebook(notebook: Notebook): ToolResultContentBlock[] {
  const blocks: ToolResultContentBlock[] = [];
  let text = '';
  const flush = () => {
    if (text.length > 0) blocks.push({ type: 'text', text });
    text = '';
  };
  notebook.cells.forEach((cell, index) => {
    text += `<cell id="${notebookCellId(cell, index)}" type="${cell.cell_type}">${notebookCellSource(cell)}</cell>\n`;
    for (const output of cell.outputs ?? []) {
      const rendered = renderOutput(output);
      if (rendered.text !== undefined) text += `<output>${truncate(rendered.text)}</output>\n`;
      for (const image of rendered.images) {
        flush();
        blocks.push({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } });
      }
    }
  });
  if (notebook.cells.length === 0) text += '(The notebook has no cells.)';
  flush();
  return blocks;
}

type RenderedOutput = {
  readonly text: string | undefined;
  readonly images: readonly { readonly mediaType: string; readonly data: string }[];
};

function renderOutput(output: unknown): RenderedOutput {
  if (typeof output !== 'object' || output === null) return { text: undefined, images: [] };
  const record = output as Record<string, unknown>;
  switch (record.output_type) {
    case 'stream':
      return { text: joinText(record.text), images: [] };
    case 'error': {
      const traceback = Array.isArray(record.traceback)
        ? record.traceback.filter((line) => typeof line === 'string').join('\n')
        : '';
      const head = `${String(record.ename ?? 'Error')}: ${String(record.evalue ?? '')}`;
      return { text: (traceback.length > 0 ? `${head}\n${traceback}` : head).replace(ANSI_PATTERN, ''), images: [] };
    }
    case 'execute_result':
    case 'display_data': {
      const data =
        typeof record.data === 'object' && record.data !== null ? (record.data as Record<string, unknown>) : {};
      const images: { mediaType: string; data: string }[] = [];
      for (const mediaType of ['image/png', 'image/jpeg']) {
        const value = joinText(data[mediaType]);
        if (value !== undefined) images.push({ mediaType, data: value.replace(/\s+/g, '') });
      }
      return { text: joinText(data['text/plain']), images };
    }
    default:
      return { text: undefined, images: [] };
  }
}

function joinText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join('');
  return undefined;
}

function truncate(text: string): string {
  return text.length > MAX_OUTPUT_CHARS
    ? `${text.slice(0, MAX_OUTPUT_CHARS)}… [output cut at ${MAX_OUTPUT_CHARS} characters]`
    : text;
}
