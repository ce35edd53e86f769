/**
 * Bash rule specifiers: `*` is a glob at any position that also matches spaces; a trailing ` *`
 * (or the legacy trailing `:*`) enforces a word boundary, so `ls *` matches `ls -la` and `ls` but
 * not `lsof`. Elsewhere `:` is literal.
 */

/** A compiled Bash rule specifier. */
export type BashPattern = {
  readonly text: string;
  /** No wildcard: only the exact command matches (required for exec wrappers and `find -exec`). */
  readonly exact: boolean;
  /** The literal words before the first wildcard, used to suggest and to describe coverage. */
  readonly prefix: string;
  /** The literal first word every matching command starts with; undefined when it has a wildcard. */
  readonly firstWord: string | undefined;
  /** How many whole words every matching command starts with, as the rule spells them (`npm test:*`: 2). */
  readonly coveredWords: number;
  test(command: string): boolean;
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Turns glob text (with `\*` for a literal star) into a regular-expression source. */
function globSource(text: string): string {
  let source = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === '\\' && text[index + 1] === '*') {
      source += '\\*';
      index += 1;
    } else if (char === '*') {
      source += '[\\s\\S]*';
    } else {
      source += escapeRegExp(char);
    }
  }
  return source;
}

/** The text before the first wildcard, with `\*` read as a literal star (as {@link globSource} does). */
function literalPrefix(text: string): string {
  let literal = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === '\\' && text[index + 1] === '*') {
      literal += '*';
      index += 1;
    } else if (char === '*') {
      break;
    } else {
      literal += char;
    }
  }
  return literal;
}

/** Compiles a Bash rule specifier (the text between the parentheses of `Bash(…)`). */
export function compileBashPattern(specifier: string): BashPattern {
  const text = specifier.trim().replace(/\s+/g, ' ');
  let body = text;
  let wordTail = false;
  // `:*` also lets the last word go on after a colon, the way scripts are named (`npm run
  // test:*` allows `npm run test:unit`, as the reference documents); never after another letter,
  // and never the program's own name (`git:*` is `git` and its arguments).
  let colonTail = false;
  if (body.endsWith(':*')) {
    body = body.slice(0, -2).trimEnd();
    wordTail = true;
    colonTail = !text.endsWith(' :*') && body.includes(' ');
  } else if (body.endsWith(' *') && !body.endsWith('\\ *')) {
    body = body.slice(0, -2).trimEnd();
    wordTail = true;
  }
  const tail = colonTail ? '(?:[ :][\\s\\S]*)?' : wordTail ? '(?: [\\s\\S]*)?' : '';
  const source = `^${globSource(body)}${tail}$`;
  const regex = new RegExp(source);
  const exact = !wordTail && !/(^|[^\\])\*/.test(body);
  const starAt = body.search(/(^|[^\\])\*/);
  const prefix = (starAt < 0 ? body : body.slice(0, starAt + 1)).trim();
  const head = body.split(' ', 1)[0] ?? '';
  // Every match starts with the text before the first wildcard: a string comparison rules most
  // patterns out without running (and compiling) their regular expression.
  const literal = literalPrefix(body);
  // Whole literal words only: in `npm test*` the second word may go on (`npm tests`).
  const literalWords = literal.split(' ');
  const wholeWords =
    exact || wordTail ? literalWords.length : literal.endsWith(' ') ? literalWords.length - 1 : literalWords.length - 1;
  return {
    text,
    exact,
    prefix,
    coveredWords: Math.max(0, literalWords.filter((word, index) => word !== '' && index < wholeWords).length),
    firstWord: head.includes('*') || head === '' ? undefined : head,
    test: (command) => command.startsWith(literal) && regex.test(command),
  };
}
