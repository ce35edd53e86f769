import { z } from 'zod';
import type { ToolFailure } from '../fs-helpers/tool-failure.js';

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
