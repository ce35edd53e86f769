import type { MappedResult } from '../../contract/tool.js';
import { withheldNote } from '../fs-helpers/read-denied-path.js';
import { mapToolFailure } from '../fs-helpers/tool-failure.js';
import type { GrepOutput } from './grep-input.js';

/** Maps Grep's output for the model, with paging notes. */
export function mapGrepOutput(output: GrepOutput): MappedResult {
  if (output.kind === 'error') return mapToolFailure(output);
  const notes: string[] = [];
  const next = output.offset + output.entries.length;
  if (output.cut)
    notes.push(
      `(Output cut at the size limit. Narrow the search with path, glob or type, or continue with offset ${next}.)`,
    );
  else if (output.more) notes.push(`(More results exist. Continue with offset ${next}, or narrow the search.)`);
  if (output.warning !== undefined) notes.push(`(Some files could not be searched: ${output.warning})`);
  if (output.withheld !== undefined) notes.push(withheldNote(output.withheld));
  const tail = notes.length > 0 ? `\n\n${notes.join('\n')}` : '';
  switch (output.mode) {
    case 'content':
      if (output.entries.length === 0 && output.offset === 0) return { content: `No matches found.${tail}` };
      return { content: `${output.entries.join('\n')}${tail}` };
    case 'files_with_matches': {
      if (output.total === 0) return { content: `No files found.${tail}` };
      const total = output.total ?? output.entries.length;
      return { content: `Found ${total} file${total === 1 ? '' : 's'}\n${output.entries.join('\n')}${tail}` };
    }
    case 'count': {
      if (output.total === 0) return { content: `No matches found.${tail}` };
      const files = output.total ?? output.entries.length;
      const summary = `Found ${output.totalMatches ?? 0} total occurrence${output.totalMatches === 1 ? '' : 's'} across ${files} file${files === 1 ? '' : 's'}.`;
      return { content: `${output.entries.join('\n')}\n\n${summary}${tail}` };
    }
  }
}
