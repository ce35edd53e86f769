import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool, ToolCheckContext } from '../../contract/tool.js';
import { planAndCommit, validateByPlan } from '../file-state/guarded-write-steps.js';
import { fileStateService, getFileStateStore, NO_FILE_STATE_STORE_MESSAGE } from '../file-state/file-state-store.js';
import { loadGuardedFile, type GuardedFile } from '../file-state/load-guarded-file.js';
import { checkAbsolutePath } from '../fs-helpers/file-path-checks.js';
import { DEFAULT_TEXT_FORMAT, encodeText } from '../fs-helpers/text-codec.js';
import { mapToolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { WRITE_PROMPT } from './write-prompt.js';

/** Write's input; the names are the reference system's. */
export const writeInputSchema = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to write'),
  content: z.string().describe('The complete content of the file'),
});

/** Write's input. */
export type WriteInput = z.infer<typeof writeInputSchema>;

/** What Write returns. */
export type WriteOutput =
  | {
      readonly kind: 'written';
      readonly filePath: string;
      readonly created: boolean;
      readonly lines: number;
      readonly bytes: number;
      /** Set when another process wrote to the file at the moment the new content landed. */
      readonly warning?: string;
    }
  | ToolFailure;

type WritePlan = { readonly ok: true; readonly file: GuardedFile; readonly data: Buffer };

async function plan(input: WriteInput, context: ToolCheckContext): Promise<WritePlan | { ok: false; message: string }> {
  const problem = checkAbsolutePath(input.file_path);
  if (problem !== undefined) return { ok: false, message: problem };
  const store = getFileStateStore(context.services);
  if (store === undefined) return { ok: false, message: NO_FILE_STATE_STORE_MESSAGE };
  const loaded = await loadGuardedFile({
    filePath: input.file_path,
    store,
    requirement: 'full-read',
    signal: context.signal,
  });
  if (!loaded.ok) return loaded;
  const format = loaded.file.exists ? loaded.file.format : DEFAULT_TEXT_FORMAT;
  return { ok: true, file: loaded.file, data: encodeText(input.content, format) };
}

/**
 * The Write tool: creates a file, or overwrites one the agent has read whole and that is
 * unchanged since; atomic, keeping an existing file's line endings, BOM, encoding and mode.
 */
export const writeTool: Tool<WriteInput, WriteOutput> = defineBuiltinTool<WriteInput, WriteOutput>('Write', {
  name: 'Write',
  services: [fileStateService],
  inputSchema: writeInputSchema,
  prompt: WRITE_PROMPT,
  searchHint: 'write create new file overwrite save',
  maxResultSizeChars: 100_000,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  isDestructive: () => true,
  userFacingName: () => 'Write',
  getPath: (input) => input.file_path,
  describeInput: (input) => {
    const count = countLines(input.content);
    return `${input.file_path} (${count} ${count === 1 ? 'line' : 'lines'})`;
  },
  validateInput: validateByPlan(plan),
  call: (input, context) =>
    planAndCommit({
      input,
      context,
      filePath: input.file_path,
      plan,
      done: (result) => ({
        kind: 'written',
        filePath: input.file_path,
        created: !result.file.exists,
        lines: countLines(input.content),
        bytes: result.data.length,
      }),
    }),
  mapResult: (output): MappedResult => {
    if (output.kind === 'error') return mapToolFailure(output);
    const verb = output.created ? 'Created' : 'Overwrote';
    const warning = output.warning !== undefined ? `\n\n${output.warning}` : '';
    return {
      content: `${verb} ${output.filePath} (${output.lines} line${output.lines === 1 ? '' : 's'}, ${output.bytes} bytes).${warning}`,
    };
  },
});

function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}
