import { RIPGREP_BASE_ARGS } from '../fs-helpers/run-ripgrep.js';

/** The Grep parameters that become ripgrep flags. */
export type GrepFlags = {
  readonly pattern: string;
  readonly output_mode: 'content' | 'files_with_matches' | 'count';
  readonly glob?: string | undefined;
  readonly type?: string | undefined;
  readonly '-i'?: boolean | undefined;
  readonly '-n'?: boolean | undefined;
  readonly '-A'?: number | undefined;
  readonly '-B'?: number | undefined;
  readonly '-C'?: number | undefined;
  readonly context?: number | undefined;
  readonly multiline?: boolean | undefined;
};

/** Longest line ripgrep prints whole; longer ones are shortened to a preview. */
export const MAX_COLUMNS = 500;

/**
 * The ripgrep arguments for a Grep call, ending with the search path. The pattern is passed with
 * `--regexp`, so one starting with `-` is never taken for a flag.
 */
export function buildRipgrepArgs(flags: GrepFlags, searchPath: string): string[] {
  const args = [
    ...RIPGREP_BASE_ARGS,
    '--no-heading',
    '--color',
    'never',
    '--max-columns',
    String(MAX_COLUMNS),
    '--max-columns-preview',
  ];
  switch (flags.output_mode) {
    case 'files_with_matches':
      args.push('--files-with-matches');
      break;
    case 'count':
      args.push('--count', '--with-filename');
      break;
    case 'content': {
      if (flags['-n'] ?? true) args.push('--line-number');
      const around = flags.context ?? flags['-C'];
      if (around !== undefined) args.push('--context', String(around));
      if (flags['-A'] !== undefined) args.push('--after-context', String(flags['-A']));
      if (flags['-B'] !== undefined) args.push('--before-context', String(flags['-B']));
      break;
    }
  }
  if (flags['-i'] === true) args.push('--ignore-case');
  if (flags.multiline === true) args.push('--multiline', '--multiline-dotall');
  if (flags.type !== undefined && flags.type.length > 0) args.push('--type', flags.type);
  for (const glob of splitGlobs(flags.glob)) args.push('--glob', glob);
  args.push('--regexp', flags.pattern, '--', searchPath);
  return args;
}

/**
 * Splits the glob parameter into ripgrep globs: on whitespace, and on commas outside braces
 * (`"*.ts,*.tsx"` is two globs, `"*.{ts,tsx}"` is one).
 */
export function splitGlobs(glob: string | undefined): string[] {
  if (glob === undefined) return [];
  const globs: string[] = [];
  for (const piece of glob.split(/\s+/)) {
    if (piece.length === 0) continue;
    let depth = 0;
    let current = '';
    for (const character of piece) {
      if (character === '{') depth++;
      if (character === '}') depth = Math.max(0, depth - 1);
      if (character === ',' && depth === 0) {
        if (current.length > 0) globs.push(current);
        current = '';
      } else {
        current += character;
      }
    }
    if (current.length > 0) globs.push(current);
  }
  return globs;
}
