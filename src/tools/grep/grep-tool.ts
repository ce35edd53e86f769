import { stat } from 'node:fs/promises';
import path from 'node:path';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { Tool, ToolCallContext } from '../../contract/tool.js';
import { describeFsError } from '../fs-helpers/file-path-checks.js';
import { runRipgrep } from '../fs-helpers/run-ripgrep.js';
import { READ_DENIED_PATH } from '../fs-helpers/read-denied-path.js';
import { toolFailure } from '../fs-helpers/tool-failure.js';
import { buildRipgrepArgs } from './build-ripgrep-args.js';
import { collectMatches, pageSortedEntries } from './collect-matches.js';
import { grepInputSchema, type GrepInput, type GrepOutput } from './grep-input.js';
import { GREP_PROMPT } from './grep-prompt.js';
import { mapGrepOutput } from './map-grep-output.js';
import { createDeniedFilter } from './withhold-denied.js';

export { grepInputSchema, type GrepInput, type GrepOutput } from './grep-input.js';
export { mapGrepOutput } from './map-grep-output.js';

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
  const matches = collectMatches({ mode: input.output_mode, offset, pageEnd, ...settings });
  const denied = context.services.get(READ_DENIED_PATH);
  const nulPaths = denied !== undefined && input.output_mode !== 'files_with_matches';
  const deniedFilter = denied ? createDeniedFilter({ denied, cwd: context.cwd, nulPaths }) : undefined;
  const args = buildRipgrepArgs(input, searchPath);
  if (nulPaths) args.splice(args.indexOf('--regexp'), 0, '--null');
  const run = await runRipgrep({
    args,
    cwd: context.cwd,
    signal: context.signal,
    onLine: (raw) => {
      const line = deniedFilter ? deniedFilter.filter(raw) : raw;
      return line === undefined ? 'continue' : matches.take(line);
    },
  });
  if (!run.ok) return toolFailure(run.message);
  const stderr = run.stderr.trim();
  if (run.exitCode === 2 && matches.kept.length === 0 && matches.seen() === 0) {
    return toolFailure(
      `ripgrep failed: ${stderr.length > 0 ? stderr : 'exit code 2'}${/regex|parse/i.test(stderr) ? '\nFix the pattern (ripgrep uses Rust regex syntax; escape special characters to match them literally) and try again.' : ''}`,
    );
  }
  const withheldCount = deniedFilter?.withheld() ?? 0;
  const common = {
    kind: 'matches' as const,
    mode: input.output_mode,
    offset,
    warning: stderr.length > 0 ? stderr.split('\n').slice(0, 3).join('\n') : undefined,
    ...(withheldCount > 0 ? { withheld: withheldCount } : {}),
  };
  if (input.output_mode === 'content') {
    const entries = matches.kept;
    return { ...common, entries, more: matches.more(), cut: matches.cut(), total: undefined, totalMatches: undefined };
  }
  const { kept } = matches;
  const totalMatches = input.output_mode === 'count' ? kept.reduce((sum, line) => sum + countOf(line), 0) : undefined;
  const { page, cut, more } = pageSortedEntries(kept, {
    offset,
    pageEnd,
    maxOutputChars: settings.maxOutputChars,
    cut: matches.cut(),
  });
  return { ...common, entries: page, more, cut, total: kept.length, totalMatches };
}

function countOf(line: string): number {
  const value = Number(line.slice(line.lastIndexOf(':') + 1));
  return Number.isFinite(value) ? value : 0;
}
