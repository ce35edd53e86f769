import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool, ToolCheckContext } from '../../contract/tool.js';
import { planAndCommit, validateByPlan } from '../file-state/guarded-write-steps.js';
import { fileStateService, getFileStateStore, NO_FILE_STATE_STORE_MESSAGE } from '../file-state/file-state-store.js';
import { checkAbsolutePath } from '../fs-helpers/file-path-checks.js';
import { numberedSnippet } from '../fs-helpers/numbered-snippet.js';
import { mapToolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { EDIT_PROMPT } from './edit-prompt.js';
import { planEdit, type EditPlan } from './plan-edit.js';

/** Edit's input; the names are the reference system's. */
export const editInputSchema = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to change'),
  old_string: z.string().describe('The exact text to replace'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string)'),
  replace_all: z.boolean().optional().default(false).describe('Replace every occurrence of old_string (default false)'),
});

/** Edit's input. */
export type EditInput = z.infer<typeof editInputSchema>;

/** What Edit returns. */
export type EditOutput =
  | {
      readonly kind: 'edited';
      readonly filePath: string;
      readonly created: boolean;
      readonly replacements: number;
      /** Numbered lines around the first change, as they now read. */
      readonly snippet: string;
      /** Set when another process wrote to the file at the moment the change landed. */
      readonly warning?: string;
    }
  | ToolFailure;

async function plan(input: EditInput, context: ToolCheckContext): Promise<EditPlan | { ok: false; message: string }> {
  const problem = checkAbsolutePath(input.file_path);
  if (problem !== undefined) return { ok: false, message: problem };
  const store = getFileStateStore(context.services);
  if (store === undefined) return { ok: false, message: NO_FILE_STATE_STORE_MESSAGE };
  return planEdit({
    filePath: input.file_path,
    oldString: input.old_string,
    newString: input.new_string,
    replaceAll: input.replace_all,
    store,
    signal: context.signal,
  });
}

/**
 * The Edit tool: exact string replacement under the read guard (the file must have been read by
 * this agent and be unchanged since), written atomically in the file's own format.
 */
export const editTool: Tool<EditInput, EditOutput> = defineBuiltinTool<EditInput, EditOutput>('Edit', {
  name: 'Edit',
  services: [fileStateService],
  inputSchema: editInputSchema,
  prompt: EDIT_PROMPT,
  searchHint: 'edit modify change replace string in file',
  maxResultSizeChars: 100_000,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  userFacingName: (input) => (input?.old_string === '' ? 'Create' : 'Update'),
  getPath: (input) => input.file_path,
  describeInput: (input) => (input.replace_all ? `${input.file_path} (replace all)` : input.file_path),
  validateInput: validateByPlan(plan),
  call: (input, context) =>
    planAndCommit({
      input,
      context,
      filePath: input.file_path,
      plan,
      done: (result) => ({
        kind: 'edited',
        filePath: input.file_path,
        created: !result.file.exists,
        replacements: result.replacements,
        snippet: numberedSnippet({ text: result.newText, start: result.changeStart, end: result.changeEnd }),
      }),
    }),
  mapResult: (output): MappedResult => {
    if (output.kind === 'error') return mapToolFailure(output);
    const warning = output.warning !== undefined ? `\n\n${output.warning}` : '';
    if (output.created) return { content: `Created ${output.filePath}.${warning}` };
    const count = output.replacements === 1 ? '' : ` (${output.replacements} replacements)`;
    return {
      content: `Updated ${output.filePath}${count}. The changed region now reads:\n${output.snippet}${warning}`,
    };
  },
});
