import type { Node } from 'web-tree-sitter';

/**
 * Where tree-sitter-bash reads a command line differently from bash, the text is rewritten to a
 * form both read alike, and parsed again. Each function takes the text and its first parse and
 * returns the text unchanged when there is nothing to fix.
 */

/**
 * Bash removes an unquoted backslash-newline before it splits words (`-\⏎delete` is `-delete`,
 * `ca\⏎t` is `cat`); the grammar reads it as a space between two words. Returns the command
 * with every such pair removed, as bash reads it; single-quoted and `$'…'` strings, comments and
 * the bodies of quoted here-documents keep theirs, as in bash.
 */
export function joinLineContinuations(source: string, root: Node): string {
  if (!source.includes('\\\n')) return source;
  const literal: (readonly [number, number])[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'raw_string' || node.type === 'ansi_c_string' || node.type === 'comment') {
      literal.push([node.startIndex, node.endIndex]);
      return;
    }
    if (node.type === 'heredoc_redirect' && node.children.some((child) => child?.type === 'heredoc_start' && /['"\\]/.test(child.text))) {
      for (const child of node.children) if (child?.type === 'heredoc_body') literal.push([child.startIndex, child.endIndex]);
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  let joined = '';
  let from = 0;
  for (const match of source.matchAll(/(\\+)\n/g)) {
    const backslash = match.index + (match[1] as string).length - 1;
    // An even run of backslashes is escaped backslashes followed by a real newline.
    if ((match[1] as string).length % 2 === 0 || literal.some(([start, end]) => backslash >= start && backslash < end)) continue;
    joined += source.slice(from, backslash);
    from = backslash + 2;
  }
  return joined + source.slice(from);
}

/**
 * The grammar glues a line that starts with a backslash escape onto the command before it
 * (`echo x⏎\rm y` reads as `echo x '⏎rm' y`, also after a redirect, an assignment or `export`);
 * bash ends the command at the newline. A bare word never holds a newline, so each such newline
 * gets a `;` before it, which bash reads the same way; where `;` is not allowed the command no
 * longer parses, and fails closed.
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
