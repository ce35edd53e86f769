import type { ToolResultContentBlock } from '../../messages/types.js';
import { mapToolFailure } from '../fs-helpers/tool-failure.js';
import type { ReadOutput } from './read-tool.js';

/** Maps Read's output for the model: text, image blocks, PDF page text or notebook cells. */
export function mapReadOutput(output: ReadOutput): {
  content: string | readonly ToolResultContentBlock[];
  isError?: boolean;
} {
  switch (output.kind) {
    case 'error':
      return mapToolFailure(output);
    case 'text': {
      const notes = output.notes.map((note) => `<note>${note}</note>`).join('\n');
      if (output.content.length === 0) return { content: notes };
      return { content: notes.length > 0 ? `${output.content}\n\n${notes}` : output.content };
    }
    case 'image':
      return {
        content: [{ type: 'image', source: { type: 'base64', media_type: output.mediaType, data: output.base64 } }],
      };
    case 'pdf': {
      const body = output.pages.map(
        (page) =>
          `--- Page ${page.page} of ${output.totalPages} ---\n${page.text.length > 0 ? page.text : '(no extractable text on this page; it may be a scanned image)'}`,
      );
      return { content: body.join('\n\n') };
    }
    case 'notebook':
      return { content: output.blocks };
  }
}
