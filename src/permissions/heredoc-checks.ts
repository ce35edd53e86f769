import type { Node } from 'web-tree-sitter';
import { isQuotedDelimiter } from './line-continuations.js';

/**
 * Here-documents checked against bash's own reading. Bash ends a body at the first line that is
 * exactly the delimiter (after leading tabs for `<<-`), and expands `$(…)`, `` `…` ``, `${…}` and
 * `$((…))` in the body unless the delimiter is quoted. Where the grammar ends a body elsewhere
 * (it accepts ` EOF` with a leading space) or leaves an expansion in the body unread, the lines
 * after it would be judged as data while bash runs them, or the reverse: that is a concern.
 */

/** Expansions bash performs in an unquoted body, found in its text. */
const BODY_EXPANSION = /\$[({[]|`/g;
const EXPANSION_NODES: ReadonlySet<string> = new Set([
  'command_substitution',
  'expansion',
  'arithmetic_expansion',
  'simple_expansion',
]);

function lineStart(source: string, index: number): number {
  return source.lastIndexOf('\n', index - 1) + 1;
}

/** Where bash ends the body that starts at `from`: the start of the delimiter line, or the end of the text. */
function bashBodyEnd(source: string, from: number, delimiter: string, stripTabs: boolean): number {
  let start = from;
  while (start <= source.length) {
    const newline = source.indexOf('\n', start);
    const end = newline < 0 ? source.length : newline;
    const line = source.slice(start, end);
    if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) return start;
    if (newline < 0) break;
    start = newline + 1;
  }
  return source.length;
}

/** Whether an unescaped expansion in the body has no node of the grammar starting at it. */
function unreadExpansion(body: Node, source: string): boolean {
  const text = source.slice(body.startIndex, body.endIndex);
  const starts = new Set(
    body.namedChildren
      .filter((child) => child !== null && EXPANSION_NODES.has(child.type))
      .map((child) => child?.startIndex),
  );
  for (const match of text.matchAll(BODY_EXPANSION)) {
    const at = match.index;
    let backslashes = 0;
    while (text[at - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0 && !starts.has(body.startIndex + at)) return true;
  }
  return false;
}

/** Reasons a here-document is not read as bash reads it (empty when every one is). */
export function heredocConcerns(root: Node, source: string): string[] {
  const concerns: string[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'heredoc_redirect') {
      const check = checkHeredoc(node, source);
      if (check !== undefined && !concerns.includes(check)) concerns.push(check);
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  return concerns;
}

function checkHeredoc(node: Node, source: string): string | undefined {
  const start = node.namedChildren.find((child) => child?.type === 'heredoc_start');
  const body = node.namedChildren.find((child) => child?.type === 'heredoc_body');
  const end = node.namedChildren.find((child) => child?.type === 'heredoc_end');
  if (!start) return 'a here-document without a delimiter';
  const written = start.text;
  // Bash removes the quotes from the delimiter word; anything it would expand there is not a plain word.
  if (/[$`]/.test(written)) return `a here-document delimiter that is not a plain word (${written.slice(0, 40)})`;
  const delimiter = written.replace(/\\(.)/g, '$1').replace(/['"]/g, '');
  const stripTabs = node.children.some((child) => child?.type === '<<-');
  let bodyStart = body?.startIndex ?? (end ? lineStart(source, end.startIndex) : undefined);
  // With <<- the grammar starts the body after the tabs bash strips from its first line.
  while (stripTabs && bodyStart !== undefined && source[bodyStart - 1] === '\t') bodyStart -= 1;
  if (bodyStart === undefined || (bodyStart > 0 && source[bodyStart - 1] !== '\n'))
    return 'a here-document whose body the grammar did not find';
  const bashEnd = bashBodyEnd(source, bodyStart, delimiter, stripTabs);
  const grammarEnd = end && end.text !== '' ? lineStart(source, end.startIndex) : source.length;
  if (bashEnd !== grammarEnd)
    return `a here-document that bash ends elsewhere than the grammar does (<<${written.slice(0, 40)})`;
  if (body && !isQuotedDelimiter(written) && unreadExpansion(body, source))
    return 'an expansion in a here-document the grammar did not read';
  return undefined;
}
