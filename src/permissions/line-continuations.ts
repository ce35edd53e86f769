import type { Node } from 'web-tree-sitter';

/**
 * Backslash-newline, as bash reads it. Bash deletes every unescaped `\⏎` before it splits words,
 * except inside single quotes, `$'…'`, comments and quoted here-documents, so `r\⏎m -rf x` runs
 * `rm` and `"$\⏎(cmd)"` is a command substitution. The grammar reads `\⏎` as a space between
 * words and leaves it in double-quoted text, so the command is parsed again with them removed.
 */

/** Nodes whose text bash keeps as written: a `\⏎` inside them is data. */
const LITERAL_NODES: ReadonlySet<string> = new Set(['raw_string', 'ansi_c_string', 'comment']);

/** Whether a here-document's delimiter is quoted, which makes its body literal (bash: "If any part of word is quoted"). */
export function isQuotedDelimiter(delimiter: string): boolean {
  return /['"\\]/.test(delimiter);
}

function literalRanges(root: Node): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (node: Node): void => {
    if (LITERAL_NODES.has(node.type)) {
      ranges.push([node.startIndex, node.endIndex]);
      return;
    }
    if (node.type === 'heredoc_redirect') {
      const start = node.namedChildren.find((child) => child?.type === 'heredoc_start');
      const body = node.namedChildren.find((child) => child?.type === 'heredoc_body');
      if (start && body && isQuotedDelimiter(start.text)) ranges.push([body.startIndex, body.endIndex]);
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return ranges;
}

/**
 * The command with every backslash-newline bash would delete removed, or the command itself when
 * it has none. `root` is the grammar's tree of `source`, used to find the literal parts.
 */
export function joinLineContinuations(source: string, root: Node): string {
  if (!source.includes('\\\n')) return source;
  const literal = literalRanges(root);
  const inLiteral = (index: number): boolean => literal.some(([start, end]) => index >= start && index < end);
  let joined = '';
  let backslashes = 0;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index] as string;
    if (char === '\n' && backslashes % 2 === 1 && !inLiteral(index - 1)) {
      joined = joined.slice(0, -1);
      backslashes = 0;
      continue;
    }
    backslashes = char === '\\' ? backslashes + 1 : 0;
    joined += char;
  }
  return joined;
}

/**
 * The grammar also glues a line that starts with a backslash escape onto the command before it
 * (`echo x⏎\rm y` reads as `echo x '⏎rm' y`, also after an assignment, a redirect or `export`);
 * bash ends the command at the newline. A bare word never holds a newline, so each such newline
 * gets a `;` before it, which bash reads the same way; where `;` is not allowed the command no
 * longer parses, and fails closed. Returns the command itself when nothing is glued.
 */
export function separateGluedLines(source: string, root: Node): string {
  const breaks: number[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'word') {
      const glued = /^[ \t]*\n/.exec(node.text);
      if (glued) breaks.push(node.startIndex + glued[0].length - 1);
      return;
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  if (breaks.length === 0) return source;
  let separated = '';
  let from = 0;
  for (const at of breaks.sort((a, b) => a - b)) {
    separated += `${source.slice(from, at)};`;
    from = at;
  }
  return separated + source.slice(from);
}
