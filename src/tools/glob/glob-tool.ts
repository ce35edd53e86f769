import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool, ToolCallContext } from '../../contract/tool.js';
import { describeFsError, describeNotRegularFile } from '../fs-helpers/file-path-checks.js';
import { RIPGREP_BASE_ARGS, runRipgrep } from '../fs-helpers/run-ripgrep.js';
import { READ_DENIED_PATH, withheldNote } from '../fs-helpers/read-denied-path.js';
import { mapToolFailure, toolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { GLOB_PROMPT } from './glob-prompt.js';

/** Glob's input; the names are the reference system's. */
export const globInputSchema = z.strictObject({
  pattern: z.string().describe('The glob pattern to match file paths against, such as "**/*.ts"'),
  path: z
    .string()
    .optional()
    .describe(
      'The folder to search in (absolute). Defaults to the working folder; omit it rather than passing "undefined"',
    ),
});

/** Glob's input. */
export type GlobInput = z.infer<typeof globInputSchema>;

/** What Glob returns. */
export type GlobOutput =
  | {
      readonly kind: 'files';
      /** Absolute paths, newest first. */
      readonly files: readonly string[];
      /** All matches found (files may hold fewer). */
      readonly total: number;
      readonly truncated: boolean;
      /** The search stopped at its candidate limit, so `total` is a lower bound. */
      readonly stoppedEarly?: boolean;
      /** Files left out because permission rules deny reading them. */
      readonly withheld?: number;
    }
  | ToolFailure;

/** Options for {@link createGlobTool}. */
export type GlobToolOptions = {
  /** Most paths returned. Default 100. */
  readonly maxResults?: number;
  /** Most matches gathered before sorting; past it the search stops. Default 100,000. */
  readonly maxCandidates?: number;
};

const STAT_CONCURRENCY = 32;

/**
 * Creates the Glob tool: lists files with ripgrep (honouring .gitignore), matches them with
 * picomatch against paths relative to the search folder, and returns the newest first.
 */
export function createGlobTool(options: GlobToolOptions = {}): Tool<GlobInput, GlobOutput> {
  const maxResults = options.maxResults ?? 100;
  const maxCandidates = options.maxCandidates ?? 100_000;
  return defineBuiltinTool<GlobInput, GlobOutput>('Glob', {
    name: 'Glob',
    services: [READ_DENIED_PATH],
    inputSchema: globInputSchema,
    prompt: GLOB_PROMPT,
    searchHint: 'find files by name pattern glob wildcard list',
    maxResultSizeChars: 100_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Search',
    getPath: (input) => input.path,
    describeInput: (input) => (input.path !== undefined ? `${input.pattern} in ${input.path}` : input.pattern),
    validateInput: (input) => {
      if (input.pattern.trim().length === 0)
        return { ok: false, message: 'pattern is empty. Give a glob such as "**/*.ts".' };
      if (input.path !== undefined && (input.path === 'undefined' || input.path === 'null')) {
        return { ok: false, message: `path is ${JSON.stringify(input.path)}; omit path to search the working folder.` };
      }
      return { ok: true };
    },
    call: (input, context) => findFiles({ input, context, maxResults, maxCandidates }),
    mapResult: mapGlobOutput,
  });
}

/** The Glob tool with default limits. */
export const globTool: Tool<GlobInput, GlobOutput> = createGlobTool();

async function findFiles(options: {
  input: GlobInput;
  context: ToolCallContext;
  maxResults: number;
  maxCandidates: number;
}): Promise<GlobOutput> {
  const { input, context } = options;
  if (input.pattern.trim().length === 0) return toolFailure('pattern is empty. Give a glob such as "**/*.ts".');
  const root = path.resolve(context.cwd, input.path ?? '.');
  try {
    const stats = await stat(root);
    if (!stats.isDirectory())
      return toolFailure(`${root} is a file, not a folder. Give the folder to search as path, or Read the file.`);
  } catch (error) {
    return toolFailure(`${describeFsError(error, root)} Give an existing folder as path.`);
  }
  const scan = picomatch.scan(input.pattern);
  const searchDir = path.resolve(root, scan.base);
  if (!scan.isGlob) return literalMatch(searchDir);
  try {
    if (!(await stat(searchDir)).isDirectory()) return { kind: 'files', files: [], total: 0, truncated: false };
  } catch {
    return { kind: 'files', files: [], total: 0, truncated: false };
  }
  const isMatch = picomatch(scan.glob, { dot: true });
  const matches: string[] = [];
  let tooMany = false;
  const run = await runRipgrep({
    args: [...RIPGREP_BASE_ARGS, '--files'],
    cwd: searchDir,
    signal: context.signal,
    onLine: (line) => {
      if (line.length > 0 && isMatch(line)) {
        matches.push(line);
        if (matches.length >= options.maxCandidates) {
          tooMany = true;
          return 'stop';
        }
      }
      return 'continue';
    },
  });
  if (!run.ok) return toolFailure(run.message);
  if (run.exitCode === 2 && matches.length === 0 && run.stderr.length > 0)
    return toolFailure(`Listing files failed: ${run.stderr.trim()}`);
  const denied = context.services.get(READ_DENIED_PATH);
  const absolute = matches.map((relative) => path.join(searchDir, relative));
  const allowed = denied ? absolute.filter((file) => !denied(file)) : absolute;
  const withheld = absolute.length - allowed.length;
  const dated = await withModificationTimes(allowed, context.signal);
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || a.file.localeCompare(b.file));
  const files = dated.slice(0, options.maxResults).map((entry) => entry.file);
  return {
    kind: 'files',
    files,
    total: dated.length,
    truncated: tooMany || dated.length > files.length,
    ...(tooMany ? { stoppedEarly: true } : {}),
    ...(withheld > 0 ? { withheld } : {}),
  };
}

async function literalMatch(file: string): Promise<GlobOutput> {
  try {
    const stats = await stat(file);
    if (stats.isFile()) return { kind: 'files', files: [file], total: 1, truncated: false };
    if (stats.isDirectory())
      return toolFailure(
        `${describeNotRegularFile(file, 'directory')} To list its files, use a pattern such as "${path.join(file, '**/*')}".`,
      );
  } catch {
    // A literal path that does not exist matches nothing.
  }
  return { kind: 'files', files: [], total: 0, truncated: false };
}

async function withModificationTimes(
  files: readonly string[],
  signal: AbortSignal,
): Promise<{ file: string; mtimeMs: number }[]> {
  const dated: { file: string; mtimeMs: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length && !signal.aborted) {
      const file = files[next++];
      if (file === undefined) break;
      try {
        dated.push({ file, mtimeMs: (await stat(file)).mtimeMs });
      } catch {
        // Deleted since it was listed: leave it out.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, files.length) }, worker));
  return dated;
}

/** Maps Glob's output for the model: one absolute path per line, with a note when cut. */
export function mapGlobOutput(output: GlobOutput): MappedResult {
  if (output.kind === 'error') return mapToolFailure(output);
  const withheld = output.withheld !== undefined ? `\n${withheldNote(output.withheld)}` : '';
  if (output.files.length === 0) return { content: `No files found.${withheld}` };
  const note = output.truncated
    ? `\n(Results are truncated: showing the ${output.files.length} most recently modified of ${output.total}${output.stoppedEarly === true ? '+' : ''} matches. Use a more specific pattern or path.)`
    : '';
  return { content: `${output.files.join('\n')}${note}${withheld}` };
}
