import type { Node } from 'web-tree-sitter';
import { escapeGlob } from './glob-expansion.js';

/**
 * Shell words as bash would see them after quote removal: the static text when it is known, and
 * flags for what makes a word unknowable before run time (expansions, substitutions, globs).
 */
export type ShellWord = {
  /** The word after quote removal when `static`, else its source text. */
  readonly value: string;
  /** No expansion or substitution: `value` is exactly what the program receives. */
  readonly static: boolean;
  /** An unquoted glob (`*`, `?`, `[`, `{a,b}`): the shell may turn it into any file names. */
  readonly glob: boolean;
  /** Any part was quoted or escaped. */
  readonly quoted: boolean;
  readonly source: string;
  /**
   * For a static word: the word as a bash pattern, its quoted and escaped characters escaped with a
   * backslash (`'*'.txt` → `\*.txt`), so globbing and brace expansion treat them literally.
   */
  readonly pattern?: string;
};

/** What a word walk reports besides the word: nested scripts to check and reasons to fail closed. */
export type WordSink = {
  /** A `$(…)`, backtick or `<(…)` body, checked as commands of its own. */
  nested(node: Node): void;
  /** Something the analysis cannot account for. */
  concern(reason: string): void;
  /** A variable an arithmetic expansion reads: bash evaluates its value as arithmetic too. */
  arithmeticName?(name: string): void;
};

const UNQUOTED_GLOB = /(^|[^\\])(?:\\\\)*[*?[]/;

/** Removes backslash escapes from an unquoted word. */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([\s\S])/g, '$1');
}

/** Removes the escapes bash honours inside double quotes. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes a `$'…'` string. */
function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|[\s\S])/g,
    (_match, escape: string) => {
      const head = escape[0] as string;
      if (head === 'x' || head === 'u' || head === 'U') {
        if (escape.length > 1) return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
      } else if (/[0-7]/.test(head)) {
        return String.fromCodePoint(Number.parseInt(escape, 8));
      }
      return ANSI_C_ESCAPES[escape] ?? `\\${escape}`;
    },
  );
}

const ARITHMETIC_NODES: ReadonlySet<string> = new Set([
  'number',
  'variable_name',
  'binary_expression',
  'unary_expression',
  'parenthesized_expression',
  'simple_expansion',
  'ternary_expression',
  'postfix_expression',
]);

/** Command substitutions anywhere below `node` (inside a subscript, say), handed to the sink to be checked. */
export function nestAll(node: Node, sink: WordSink): void {
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (child.type === 'command_substitution' || child.type === 'process_substitution') sink.nested(child);
    else nestAll(child, sink);
  }
}

function checkArithmetic(node: Node, sink: WordSink): void {
  if (node.text.startsWith('$[')) {
    sink.concern('the $[…] arithmetic form');
    nestAll(node, sink);
    return;
  }
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (child.type === 'variable_name') sink.arithmeticName?.(child.text);
    if (child.type === 'simple_expansion') sink.arithmeticName?.(child.text.replace(/^\$/, ''));
    if (!ARITHMETIC_NODES.has(child.type)) {
      sink.concern(`arithmetic containing ${child.type}`);
      // Still hand the commands inside to the caller, so deny rules see `$((a[$(rm …)]))`.
      if (child.type === 'command_substitution' || child.type === 'process_substitution') sink.nested(child);
      else nestAll(child, sink);
      continue;
    }
    checkArithmetic(child, sink);
  }
}

function checkExpansion(node: Node, sink: WordSink): void {
  if (/^\$\{#?IFS\b/.test(node.text)) sink.concern('the $IFS variable');
  const named = node.namedChildren.filter((child) => child !== null);
  const simple =
    named.length === 1 && (named[0]?.type === 'variable_name' || named[0]?.type === 'special_variable_name');
  if (!simple || node.childCount !== 3) sink.concern(`the parameter expansion ${node.text}`);
  for (const child of named) {
    if (child.type === 'command_substitution' || child.type === 'process_substitution') sink.nested(child);
  }
}

/** Reads one word-like node (`word`, `string`, `raw_string`, `concatenation`, expansions, …). */
export function readWord(node: Node, sink: WordSink): ShellWord {
  const source = node.text;
  switch (node.type) {
    case 'word':
    case 'number':
    case 'file_descriptor':
    case 'variable_name':
    case 'special_variable_name':
      return {
        value: unescapeUnquoted(source),
        static: true,
        glob: UNQUOTED_GLOB.test(source),
        quoted: source.includes('\\'),
        source,
        pattern: source,
      };
    case 'raw_string':
      return {
        value: source.slice(1, -1),
        static: true,
        glob: false,
        quoted: true,
        source,
        pattern: escapeGlob(source.slice(1, -1)),
      };
    case 'ansi_c_string': {
      const value = decodeAnsiC(source.slice(2, -1));
      return { value, static: true, glob: false, quoted: true, source, pattern: escapeGlob(value) };
    }
    case 'string':
    case 'translated_string': {
      let isStatic = true;
      for (const child of node.namedChildren) {
        if (child === null || child.type === 'string_content') continue;
        isStatic = false;
        readWord(child, sink);
      }
      const body = node.type === 'translated_string' ? source.slice(2, -1) : source.slice(1, -1);
      const value = isStatic ? unescapeDoubleQuoted(body) : source;
      return {
        value,
        static: isStatic,
        glob: false,
        quoted: true,
        source,
        ...(isStatic ? { pattern: escapeGlob(value) } : {}),
      };
    }
    case 'concatenation': {
      let value = '';
      let pattern = '';
      let isStatic = true;
      let glob = false;
      let quoted = false;
      for (const child of node.children) {
        if (child === null) continue;
        // `{a,b}` and `{1..3}` arrive as the words `{`, `a,b`, `}`: bash expands them into several words.
        if (child.type === 'word' && (child.text === '{' || child.text === '}')) glob = true;
        const part = readWord(child, sink);
        value += part.value;
        pattern += part.pattern ?? escapeGlob(part.value);
        isStatic &&= part.static;
        glob ||= part.glob;
        quoted ||= part.quoted;
      }
      return {
        value: isStatic ? value : source,
        static: isStatic,
        glob,
        quoted,
        source,
        ...(isStatic ? { pattern } : {}),
      };
    }
    case 'simple_expansion': {
      if (/^\$\{?IFS\b/.test(source)) sink.concern('the $IFS variable');
      return { value: source, static: false, glob: false, quoted: false, source };
    }
    case 'expansion':
      checkExpansion(node, sink);
      return { value: source, static: false, glob: false, quoted: false, source };
    case 'command_substitution':
    case 'process_substitution':
      sink.nested(node);
      return { value: source, static: false, glob: false, quoted: false, source };
    case 'arithmetic_expansion':
      checkArithmetic(node, sink);
      return { value: source, static: false, glob: false, quoted: false, source };
    case 'array': {
      // `a=(x "$y" [k]=v)`: each element is a word; a `[k]=` subscript is evaluated as arithmetic.
      for (const element of node.namedChildren) {
        if (element === null) continue;
        const word = readWord(element, sink);
        const subscript = /^\[([^\]]*)\]\+?=/.exec(word.static ? word.value : word.source);
        if (subscript && !/^[A-Za-z0-9_]*$/.test(subscript[1] as string))
          sink.concern(`the array element ${word.source.slice(0, 60)}, whose subscript bash evaluates as arithmetic`);
      }
      return { value: source, static: false, glob: false, quoted: false, source };
    }
    case 'brace_expression':
      return { value: source, static: true, glob: true, quoted: false, source, pattern: source };
    default:
      if (!node.isNamed && node.childCount === 0) {
        return {
          value: unescapeUnquoted(source),
          static: true,
          glob: UNQUOTED_GLOB.test(source),
          quoted: false,
          source,
          pattern: source,
        };
      }
      sink.concern(`a ${node.type} in a word`);
      return { value: source, static: false, glob: false, quoted: false, source };
  }
}

const NEEDS_QUOTES = /[\s'"\\$`;&|<>(){}*?[\]#~!]/;

/** Renders a word for rule matching: static words quoted only when they must be. */
export function renderWord(word: ShellWord): string {
  if (!word.static) return word.source;
  if (!word.quoted || word.glob) return word.value;
  if (word.value === '') return "''";
  if (!NEEDS_QUOTES.test(word.value)) return word.value;
  return `'${word.value.replace(/'/g, `'\\''`)}'`;
}
