import type { GrepInput } from './grep-input.js';

/** What a search keeps of ripgrep's lines, and whether there is more than it kept. */
export type CollectedMatches = {
  /** Content: the page, in ripgrep's order. Files and counts: every entry, to sort and page later. */
  readonly kept: string[];
  /** Content lines seen so far (kept or skipped by offset). */
  readonly seen: () => number;
  readonly more: () => boolean;
  readonly cut: () => boolean;
  /** Takes one line; `stop` ends the search. */
  readonly take: (line: string) => 'continue' | 'stop';
};

/**
 * Collects ripgrep's output lines for one search. Content arrives in ripgrep's order, so the page
 * (`offset` to `pageEnd`) is kept as it streams and the search stops as soon as it is known there
 * is more, or at `maxOutputChars`. Files and counts come from several threads in no fixed order:
 * all of them are kept (at most `maxEntries`) to be sorted and paged by {@link pageSortedEntries}.
 */
export function collectMatches(options: {
  readonly mode: GrepInput['output_mode'];
  readonly offset: number;
  readonly pageEnd: number;
  readonly maxOutputChars: number;
  readonly maxEntries: number;
}): CollectedMatches {
  const kept: string[] = [];
  let seen = 0;
  let chars = 0;
  let more = false;
  let cut = false;
  const take = (line: string): 'continue' | 'stop' => {
    if (options.mode !== 'content') {
      kept.push(line);
      if (kept.length < options.maxEntries) return 'continue';
      cut = true;
      return 'stop';
    }
    const index = seen++;
    if (index < options.offset) return 'continue';
    if (index >= options.pageEnd) {
      more = true;
      return 'stop';
    }
    if (chars + line.length + 1 > options.maxOutputChars) {
      more = true;
      cut = true;
      return 'stop';
    }
    kept.push(line);
    chars += line.length + 1;
    return 'continue';
  };
  return { kept, seen: () => seen, more: () => more, cut: () => cut, take };
}

/**
 * Sorts all file or count entries (for a stable answer) and cuts the page `offset` to `pageEnd`,
 * stopping at `maxOutputChars`. `cut` is true when the size limit, or the entry limit before it, stopped it.
 */
export function pageSortedEntries(
  entries: string[],
  options: {
    readonly offset: number;
    readonly pageEnd: number;
    readonly maxOutputChars: number;
    readonly cut: boolean;
  },
): { readonly page: string[]; readonly cut: boolean; readonly more: boolean } {
  entries.sort();
  const page: string[] = [];
  let pageChars = 0;
  let cut = options.cut;
  for (const entry of entries.slice(options.offset, options.pageEnd)) {
    if (pageChars + entry.length + 1 > options.maxOutputChars) {
      cut = true;
      break;
    }
    page.push(entry);
    pageChars += entry.length + 1;
  }
  return { page, cut, more: cut || options.offset + page.length < entries.length };
}
