import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { Tool, ToolCallContext } from '../../contract/tool.js';
import type { ToolResultContentBlock } from '../../messages/types.js';
import {
  fileStateService,
  getFileStateStore,
  NO_FILE_STATE_STORE_MESSAGE,
  hashBytes,
  type FileStateStore,
} from '../file-state/file-state-store.js';
import {
  checkAbsolutePath,
  describeFsError,
  describeNotRegularFile,
  isDevicePath,
  processSecretReason,
  suggestSimilarPaths,
} from '../fs-helpers/file-path-checks.js';
import { parseNotebook } from '../fs-helpers/notebook.js';
import { decodeText, describeNotText } from '../fs-helpers/text-codec.js';
import { toolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { imageMediaTypeForExtension, MAX_IMAGE_BYTES, sniffImageMediaType } from './read-image.js';
import { MAX_PDF_BYTES, parsePageRange, readPdfText } from './read-pdf.js';
import { READ_PROMPT } from './read-prompt.js';
import { readTextFile } from './read-text-file.js';
import { renderNotebook } from './render-notebook.js';
import { standingRead, unchangedReadNote } from './unchanged-read.js';
import { mapReadOutput } from './map-read-output.js';

export { mapReadOutput };

/** Read's input; the names are the reference system's. */
export const readInputSchema = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to read'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('The line number to start reading from (1-based). Only for files too long to read at once'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The number of lines to read. Only for files too long to read at once'),
  pages: z.string().optional().describe('Page range for PDF files, such as "1-5" or "3". At most 20 pages per call'),
});

/** Read's input. */
export type ReadInput = z.infer<typeof readInputSchema>;

/** What Read returns, by kind of file. */
export type ReadOutput =
  | {
      readonly kind: 'text';
      readonly filePath: string;
      /** Numbered lines, or empty for an empty file or a range past the end. */
      readonly content: string;
      readonly startLine: number;
      readonly lineCount: number;
      readonly totalLines: number;
      /** Notes for the model about what was not shown. */
      readonly notes: readonly string[];
    }
  | {
      readonly kind: 'image';
      readonly filePath: string;
      readonly mediaType: string;
      readonly base64: string;
      readonly bytes: number;
    }
  | {
      readonly kind: 'pdf';
      readonly filePath: string;
      readonly totalPages: number;
      readonly pages: readonly { readonly page: number; readonly text: string }[];
    }
  | { readonly kind: 'notebook'; readonly filePath: string; readonly blocks: readonly ToolResultContentBlock[] }
  | ToolFailure;

/** Options for {@link createReadTool}. */
export type ReadToolOptions = {
  /** Lines shown when no limit is given. Default 2,000. */
  readonly defaultLineLimit?: number;
  /** Longest line shown whole, in characters. Default 2,000. */
  readonly maxLineChars?: number;
  /** Largest text file read whole without offset/limit (bytes). Default 256 KiB. */
  readonly maxWholeFileBytes?: number;
  /** Most characters of text one Read returns. Default 256,000. */
  readonly maxOutputChars?: number;
  /** Largest notebook Read opens (bytes). Default 16 MiB. */
  readonly maxNotebookBytes?: number;
};

/**
 * Creates the Read tool: numbered text, images as image blocks, PDFs as text per page and
 * notebooks as cells with outputs. Each text or notebook read is recorded in the agent's
 * file-state store (the {@link getFileStateStore} service), which Edit, Write and NotebookEdit check.
 */
export function createReadTool(options: ReadToolOptions = {}): Tool<ReadInput, ReadOutput> {
  const settings = {
    defaultLineLimit: options.defaultLineLimit ?? 2_000,
    maxLineChars: options.maxLineChars ?? 2_000,
    maxWholeFileBytes: options.maxWholeFileBytes ?? 256 * 1024,
    maxOutputChars: options.maxOutputChars ?? 256_000,
    maxNotebookBytes: options.maxNotebookBytes ?? 16 * 1024 * 1024,
  };
  return defineBuiltinTool<ReadInput, ReadOutput>('Read', {
    name: 'Read',
    services: [fileStateService],
    inputSchema: readInputSchema,
    prompt: READ_PROMPT,
    searchHint: 'read view open show file contents lines image pdf notebook',
    // Read bounds itself by lines and characters; spilling its result to a file would only be read back.
    maxResultSizeChars: Number.POSITIVE_INFINITY,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Read',
    getPath: (input) => input.file_path,
    describeInput: (input) => {
      const range =
        input.offset !== undefined || input.limit !== undefined
          ? ` (lines ${input.offset ?? 1}${input.limit !== undefined ? `–${(input.offset ?? 1) + input.limit - 1}` : '+'})`
          : '';
      const pages = input.pages !== undefined ? ` (pages ${input.pages})` : '';
      return `${input.file_path}${range}${pages}`;
    },
    validateInput: (input) => {
      const problem = checkAbsolutePath(input.file_path);
      if (problem !== undefined) return { ok: false, message: problem };
      if (isDevicePath(input.file_path))
        return { ok: false, message: describeNotRegularFile(input.file_path, 'special') };
      const secret = processSecretReason(input.file_path);
      if (secret !== undefined) return { ok: false, message: secret };
      if (input.pages !== undefined) {
        if (path.extname(input.file_path).toLowerCase() !== '.pdf') {
          return { ok: false, message: 'pages only applies to PDF files. For text files use offset and limit.' };
        }
        const range = parsePageRange(input.pages);
        if (!range.ok) return { ok: false, message: range.message };
      }
      return { ok: true };
    },
    call: (input, context) => readFile(input, context, settings),
    mapResult: mapReadOutput,
  });
}

/** The Read tool with default limits. */
export const readTool: Tool<ReadInput, ReadOutput> = createReadTool();

type Settings = Required<ReadToolOptions>;

async function readFile(input: ReadInput, context: ToolCallContext, settings: Settings): Promise<ReadOutput> {
  const filePath = input.file_path;
  const problem = checkAbsolutePath(filePath);
  if (problem !== undefined) return toolFailure(problem);
  if (isDevicePath(filePath)) return toolFailure(describeNotRegularFile(filePath, 'special'));
  const store = getFileStateStore(context.services);
  if (store === undefined) return toolFailure(NO_FILE_STATE_STORE_MESSAGE);
  let realPath: string;
  try {
    realPath = await realpath(filePath);
    const secret = processSecretReason(filePath) ?? processSecretReason(realPath);
    if (secret !== undefined) return toolFailure(secret);
    const stats = await stat(realPath);
    if (stats.isDirectory()) return toolFailure(describeNotRegularFile(filePath, 'directory'));
    if (!stats.isFile() || isDevicePath(realPath)) return toolFailure(describeNotRegularFile(filePath, 'special'));
  } catch (error) {
    const message = describeFsError(error, filePath);
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    return toolFailure(
      code === 'ENOENT' ? message + (await suggestSimilarPaths(path.resolve(filePath), context.signal)) : message,
    );
  }
  const extension = path.extname(realPath).toLowerCase() || path.extname(filePath).toLowerCase();
  try {
    const imageType = imageMediaTypeForExtension(extension);
    if (imageType !== undefined) return await readImage(filePath, realPath, context.signal);
    if (extension === '.pdf') return await readPdf(input, realPath, context.signal);
    // A notebook read with a range is read as its raw JSON text.
    if (extension === '.ipynb' && input.offset === undefined && input.limit === undefined)
      return await readNotebook(filePath, realPath, store, context.signal, settings);
    return await readText(input, realPath, store, context, settings);
  } catch (error) {
    if (context.signal.aborted) return toolFailure(`Reading ${filePath} was aborted.`);
    return toolFailure(describeFsError(error, filePath));
  }
}

async function openRegular(realPath: string) {
  // O_NONBLOCK: a path swapped for a FIFO after the stat above must not hang the read.
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    return undefined;
  }
  return { handle, stats };
}

async function readText(
  input: ReadInput,
  realPath: string,
  store: FileStateStore,
  context: ToolCallContext,
  settings: Settings,
): Promise<ReadOutput> {
  const { signal } = context;
  const filePath = input.file_path;
  const opened = await openRegular(realPath);
  if (opened === undefined) return toolFailure(describeNotRegularFile(filePath, 'special'));
  const { handle, stats } = opened;
  try {
    const ranged = input.offset !== undefined || input.limit !== undefined;
    if (!ranged && stats.size > settings.maxWholeFileBytes) {
      return toolFailure(
        `${filePath} is ${formatBytes(stats.size)}, over the ${formatBytes(settings.maxWholeFileBytes)} limit for reading a whole file. ` +
          'Read it in parts with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.',
      );
    }
    const offset = Math.max(1, input.offset ?? 1);
    const result = await readTextFile({
      handle,
      offset,
      limit: input.limit ?? settings.defaultLineLimit,
      maxLineChars: settings.maxLineChars,
      maxOutputChars: settings.maxOutputChars,
      signal,
    });
    if (!result.ok) return toolFailure(describeNotText(result.reason, filePath));
    const shownEnd = offset + result.lineCount - 1;
    const partial = offset > 1 || shownEnd < result.totalLines;
    const range = { offset, limit: input.limit };
    const now = { hash: result.hash, mtimeMs: stats.mtimeMs, size: stats.size };
    const standing = standingRead(store.get(realPath), { ...now, range }, context.services);
    // An unchanged re-read keeps pointing at the result the model still has.
    const readBy = { toolUseId: standing ?? context.toolUseId, ...range };
    store.set(realPath, { ...now, partial, recordedAtMs: Date.now(), readBy });
    if (standing !== undefined) {
      const notes = [unchangedReadNote(filePath, standing)];
      return {
        kind: 'text',
        filePath,
        content: '',
        startLine: offset,
        lineCount: 0,
        totalLines: result.totalLines,
        notes,
      };
    }
    const notes: string[] = [];
    if (result.totalLines === 0) {
      notes.push(`${filePath} exists but is empty.`);
    } else if (result.lineCount === 0) {
      notes.push(
        `${filePath} has ${result.totalLines} line${result.totalLines === 1 ? '' : 's'}; offset ${offset} is past its end. Use a smaller offset.`,
      );
    } else if (result.cutAtOutputLimit) {
      notes.push(
        `Output stopped after line ${shownEnd} because it reached ${settings.maxOutputChars} characters. Continue with offset ${shownEnd + 1}.`,
      );
    } else if (shownEnd < result.totalLines) {
      notes.push(
        `Showing lines ${offset}–${shownEnd} of ${result.totalLines}. Continue with offset ${shownEnd + 1} to read more.`,
      );
    }
    if (result.cutLines > 0) {
      notes.push(
        `${result.cutLines} line${result.cutLines === 1 ? ' was' : 's were'} longer than ${settings.maxLineChars} characters and cut; use Grep or Bash to see them whole.`,
      );
    }
    return {
      kind: 'text',
      filePath,
      content: result.numbered,
      startLine: offset,
      lineCount: result.lineCount,
      totalLines: result.totalLines,
      notes,
    };
  } finally {
    await handle.close();
  }
}

async function readImage(filePath: string, realPath: string, signal: AbortSignal): Promise<ReadOutput> {
  const opened = await openRegular(realPath);
  if (opened === undefined) return toolFailure(describeNotRegularFile(filePath, 'special'));
  const { handle, stats } = opened;
  try {
    if (stats.size > MAX_IMAGE_BYTES) {
      return toolFailure(
        `${filePath} is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_IMAGE_BYTES)} image limit. Make a smaller copy with Bash (for example with ImageMagick) and read that.`,
      );
    }
    if (stats.size === 0) return toolFailure(`${filePath} is an empty file, not an image.`);
    const bytes = await handle.readFile({ signal });
    const mediaType = sniffImageMediaType(bytes);
    if (mediaType === undefined) {
      return toolFailure(`${filePath} has an image extension but its content is not a PNG, JPEG, GIF or WebP image.`);
    }
    return { kind: 'image', filePath, mediaType, base64: bytes.toString('base64'), bytes: bytes.length };
  } finally {
    await handle.close();
  }
}

async function readPdf(input: ReadInput, realPath: string, signal: AbortSignal): Promise<ReadOutput> {
  const filePath = input.file_path;
  const opened = await openRegular(realPath);
  if (opened === undefined) return toolFailure(describeNotRegularFile(filePath, 'special'));
  const { handle, stats } = opened;
  let data: Buffer;
  try {
    if (stats.size > MAX_PDF_BYTES) {
      return toolFailure(
        `${filePath} is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_PDF_BYTES)} PDF limit. Use Bash (for example pdftotext) to extract what you need.`,
      );
    }
    data = await handle.readFile({ signal });
  } finally {
    await handle.close();
  }
  let range;
  if (input.pages !== undefined) {
    const parsed = parsePageRange(input.pages);
    if (!parsed.ok) return toolFailure(parsed.message);
    range = parsed.range;
  }
  const result = await readPdfText({
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    range,
    signal,
  });
  if (!result.ok) return toolFailure(`Cannot read ${filePath}: ${result.message}`);
  return { kind: 'pdf', filePath, totalPages: result.totalPages, pages: result.pages };
}

async function readNotebook(
  filePath: string,
  realPath: string,
  store: FileStateStore,
  signal: AbortSignal,
  settings: Settings,
): Promise<ReadOutput> {
  const opened = await openRegular(realPath);
  if (opened === undefined) return toolFailure(describeNotRegularFile(filePath, 'special'));
  const { handle, stats } = opened;
  let bytes: Buffer;
  try {
    if (stats.size > settings.maxNotebookBytes) {
      return toolFailure(
        `${filePath} is ${formatBytes(stats.size)}, over the ${formatBytes(settings.maxNotebookBytes)} notebook limit. Use Bash with jq to look at parts of it.`,
      );
    }
    bytes = await handle.readFile({ signal });
  } finally {
    await handle.close();
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return toolFailure(describeNotText(decoded.reason, filePath));
  const parsed = parseNotebook(decoded.text);
  if (!parsed.ok)
    return toolFailure(
      `Cannot show ${filePath} as a notebook: ${parsed.message}. Read it with offset and limit to see the raw text.`,
    );
  store.set(realPath, {
    hash: hashBytes(bytes),
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    partial: false,
    recordedAtMs: Date.now(),
  });
  return { kind: 'notebook', filePath, blocks: renderNotebook(parsed.notebook) };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
