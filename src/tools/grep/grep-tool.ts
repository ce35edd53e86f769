import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool, ToolCallContext } from '../../contract/tool.js';
import { describeFsError } from '../fs-helpers/file-path-checks.js';
import { runRipgrep } from '../fs-helpers/run-ripgrep.js';
import { READ_DENIED_PATH, withheldNote } from '../fs-helpers/read-denied-path.js';
import { mapToolFailure, toolFailure, type ToolFailure } from '../fs-helpers/tool-failure.js';
import { buildRipgrepArgs } from './build-ripgrep-args.js';
import { GREP_PROMPT } from './grep-prompt.js';

const lines = z.number().int().nonnegative();

/** Grep's input; the names are the reference system's (ripgrep's flags for the short ones). */
export const grepInputSchema = z.strictObject({
  pattern: z.string().describe('The regular expression to search for (ripgrep syntax)'),
  path: z.string().optional().describe('File or folder to search (absolute). Defaults to the working folder'),
  glob: z.string().optional().describe('Only search files matching this glob, such as "*.js" or "*.{ts,tsx}"'),
  type: z.string().optional().describe('Only search files of this ripgrep type, such as "js", "py", "rust"'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .default('files_with_matches')
    .describe(
      '"content" shows matching lines, "files_with_matches" (default) lists files, "count" counts matches per file',
    ),
  '-i': z.boolean().optional().describe('Ignore case'),
  '-n': z.boolean().optional().describe('Show line numbers (content mode; default true)'),
  '-A': lines.optional().describe('Lines to show after each match (content mode)'),
  '-B': lines.optional().describe('Lines to show before each match (content mode)'),
  '-C': lines.optional().describe('Lines to show before and after each match (content mode)'),
  context: lines.optional().describe('Same as -C'),
  multiline: z.boolean().optional().describe('Let the pattern span lines, with . matching line breaks (default false)'),
  head_limit: lines.optional().describe('Return at most this many lines or entries (default 250; 0 for no limit)'),
  offset: lines.optional().describe('Skip this many lines or entries first (default 0)'),
});

/** Grep's input. */
export type GrepInput = z.infer<typeof grepInputSchema>;

/** What Grep returns. */
export type GrepOutput =
  | {
      readonly kind: 'matches';
      readonly mode: GrepInput['output_mode'];
      /** Output lines (content), file paths (files_with_matches) or `path:count` lines (count), after paging. */
      readonly entries: readonly string[];
      readonly offset: number;
      /** More entries exist after these (a further page, or output cut at the size limit). */
      readonly more: boolean;
      /** Output stopped at the size limit rather than head_limit. */
      readonly cut: boolean;
      /** All entries before paging, when known (files and count modes). */
      readonly total: number | undefined;
      /** Total matches in count mode. */
      readonly totalMatches: number | undefined;
      /** ripgrep's complaint about some files (unreadable, …), when it still found results. */
      readonly warning: string | undefined;
      /** Files left out because permission rules deny reading them. */
      readonly withheld?: number;
    }
  | ToolFailure;

/** Options for {@link createGrepTool}. */
export type GrepToolOptions = {
  /** Entries returned when head_limit is not given. Default 250. */
  readonly defaultHeadLimit?: number;
  /** Most characters of output kept; past it the search stops and says so. Default 30,000. */
  readonly maxOutputChars?: number;
  /** Most file entries gathered for sorting in files and count modes. Default 200,000. */
  readonly maxEntries?: number;
};

/** Creates the Grep tool: ripgrep over the file tree, paged with head_limit and offset. */
export function createGrepTool(options: GrepToolOptions = {}): Tool<GrepInput, GrepOutput> {
  const settings: Required<GrepToolOptions> = {
    defaultHeadLimit: options.defaultHeadLimit ?? 250,
    maxOutputChars: options.maxOutputChars ?? 30_000,
    maxEntries: options.maxEntries ?? 200_000,
  };
  return defineBuiltinTool<GrepInput, GrepOutput>('Grep', {
    name: 'Grep',
    services: [READ_DENIED_PATH],
    inputSchema: grepInputSchema,
    prompt: GREP_PROMPT,
    searchHint: 'search file contents regex ripgrep find text code',
    maxResultSizeChars: settings.maxOutputChars + 2_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Search',
    getPath: (input) => input.path,
    describeInput: (input) =>
      `"${input.pattern}"${input.path !== undefined ? ` in ${input.path}` : ''}${input.glob !== undefined ? ` (${input.glob})` : ''}`,
    validateInput: (input) => {
      if (input.pattern.length === 0)
        return { ok: false, message: 'pattern is empty. Give the regular expression to search for.' };
      return { ok: true };
    },
    call: (input, context) => search(input, context, settings),
    mapResult: mapGrepOutput,
  });
}

/** The Grep tool with default limits. */
export const grepTool: Tool<GrepInput, GrepOutput> = createGrepTool();

async function search(
  input: GrepInput,
  context: ToolCallContext,
  settings: Required<GrepToolOptions>,
): Promise<GrepOutput> {
  if (input.pattern.length === 0) return toolFailure('pattern is empty. Give the regular expression to search for.');
  const searchPath = path.resolve(context.cwd, input.path ?? '.');
  try {
    await stat(searchPath);
  } catch (error) {
    return toolFailure(`${describeFsError(error, searchPath)} Give an existing file or folder as path.`);
  }
  const offset = input.offset ?? 0;
  const headLimit = input.head_limit ?? settings.defaultHeadLimit;
  const pageEnd = headLimit === 0 ? Number.POSITIVE_INFINITY : offset + headLimit;
  const streaming = input.output_mode === 'content';
  const kept: string[] = [];
  let seen = 0;
  let chars = 0;
  let more = false;
  let cut = false;
  const denied = context.services.get(READ_DENIED_PATH);
  const withheldFiles = new Set<string>();
  // With a deny filter, paths are NUL-terminated (content and count modes) so they parse exactly.
  const nulPaths = denied !== undefined && input.output_mode !== 'files_with_matches';
  const args = buildRipgrepArgs(input, searchPath);
  if (nulPaths) args.splice(args.indexOf('--regexp'), 0, '--null');
  const run = await runRipgrep({
    args,
    cwd: context.cwd,
    signal: context.signal,
    onLine: (raw) => {
      let line = raw;
      if (denied) {
        const nul = nulPaths ? raw.indexOf('\0') : -1;
        const file = nulPaths ? (nul === -1 ? undefined : raw.slice(0, nul)) : raw;
        if (file !== undefined) {
          if (denied(path.resolve(context.cwd, file))) {
            withheldFiles.add(file);
            return 'continue';
          }
          if (nul !== -1) {
            const rest = raw.slice(nul + 1);
            const separator = /^\d+([:-])/.exec(rest)?.[1] ?? ':';
            line = `${file}${separator}${rest}`;
          }
        }
      }
      if (!streaming) {
        kept.push(line);
        if (kept.length >= settings.maxEntries) {
          cut = true;
          return 'stop';
        }
        return 'continue';
      }
      // Content arrives in ripgrep's order: keep the page, stop as soon as it is known there is more.
      const index = seen++;
      if (index < offset) return 'continue';
      if (index >= pageEnd) {
        more = true;
        return 'stop';
      }
      if (chars + line.length + 1 > settings.maxOutputChars) {
        more = true;
        cut = true;
        return 'stop';
      }
      kept.push(line);
      chars += line.length + 1;
      return 'continue';
    },
  });
  if (!run.ok) return toolFailure(run.message);
  const stderr = run.stderr.trim();
  if (run.exitCode === 2 && kept.length === 0 && seen === 0) {
    return toolFailure(
      `ripgrep failed: ${stderr.length > 0 ? stderr : 'exit code 2'}${/regex|parse/i.test(stderr) ? '\nFix the pattern (ripgrep uses Rust regex syntax; escape special characters to match them literally) and try again.' : ''}`,
    );
  }
  const warning = stderr.length > 0 ? stderr.split('\n').slice(0, 3).join('\n') : undefined;
  const withheld = withheldFiles.size > 0 ? { withheld: withheldFiles.size } : {};
  if (streaming) {
    return {
      kind: 'matches',
      mode: input.output_mode,
      entries: kept,
      offset,
      more,
      cut,
      total: undefined,
      totalMatches: undefined,
      warning,
      ...withheld,
    };
  }
  // Files and counts come from several threads in no fixed order: sort for a stable answer.
  kept.sort();
  const totalMatches = input.output_mode === 'count' ? kept.reduce((sum, line) => sum + countOf(line), 0) : undefined;
  const page: string[] = [];
  let pageChars = 0;
  for (const entry of kept.slice(offset, pageEnd)) {
    if (pageChars + entry.length + 1 > settings.maxOutputChars) {
      cut = true;
      break;
    }
    page.push(entry);
    pageChars += entry.length + 1;
  }
  return {
    kind: 'matches',
    mode: input.output_mode,
    entries: page,
    offset,
    more: cut || offset + page.length < kept.length,
    cut,
    total: kept.length,
    totalMatches,
    warning,
    ...withheld,
  };
}

function countOf(line: string): number {
  const value = Number(line.slice(line.lastIndexOf(':') + 1));
  return Number.isFinite(value) ? value : 0;
}

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
