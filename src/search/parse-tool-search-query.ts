/** A ToolSearch query, parsed into its form. */
export type ToolSearchQuery =
  /** `select:A,B`: exact tool names, in the order given, without duplicates. */
  | { readonly kind: 'select'; readonly names: readonly string[] }
  /**
   * Keywords: free words, `+word` required words, and an optional `mcp__server` name prefix
   * (the first word starting with `mcp__`).
   */
  | {
      readonly kind: 'keywords';
      readonly text: string;
      readonly required: readonly string[];
      readonly namePrefix: string | undefined;
    };

const SELECT = /^select:/i;

/** Parses a ToolSearch query. Never fails: anything that is not `select:` is keywords. */
export function parseToolSearchQuery(query: string): ToolSearchQuery {
  const trimmed = query.trim();
  if (SELECT.test(trimmed)) {
    const names: string[] = [];
    for (const part of trimmed.replace(SELECT, '').split(',')) {
      const name = part.trim();
      if (name !== '' && !names.includes(name)) names.push(name);
    }
    return { kind: 'select', names };
  }
  const required: string[] = [];
  const words: string[] = [];
  let namePrefix: string | undefined;
  for (const word of trimmed.split(/\s+/)) {
    if (word === '') continue;
    if (word.length > 1 && word.startsWith('+')) required.push(word.slice(1));
    else if (namePrefix === undefined && /^mcp__/i.test(word)) namePrefix = word;
    else words.push(word);
  }
  return { kind: 'keywords', text: words.join(' '), required, namePrefix };
}
