import type { Node } from 'web-tree-sitter';
import { describeShellSyntax } from './describe-shell-syntax.js';
import { absolutePath } from './path-resolution.js';
import type { ShellAssignment, ShellCommand, ShellRedirect } from './shell-script.js';
import { nestAll, readWord, type ShellWord, type WordSink } from './shell-words.js';

// The walk over the grammar's tree of one command line: every simple command wherever it sits
// (lists, pipelines, subshells, substitutions, here-document lines), the folders it may run in
// after `cd`, its redirections, and concerns for syntax outside the understood set.

const SEQUENCE_NODES: ReadonlySet<string> = new Set(['program', 'list', 'compound_statement']);
const IGNORED_NODES: ReadonlySet<string> = new Set(['comment', 'heredoc_start', 'heredoc_end', 'file_descriptor']);
const REDIRECT_NODES: ReadonlySet<string> = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** Nodes that are one shell word. */
const WORD_NODES: ReadonlySet<string> = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'number',
  'brace_expression',
]);
/** Expression nodes the grammar builds inside `[ … ]`; their leaves are the words of the command. */
const EXPRESSION_NODES: ReadonlySet<string> = new Set([
  'unary_expression',
  'binary_expression',
  'parenthesized_expression',
  'ternary_expression',
  'postfix_expression',
]);
const WRITE_OPERATORS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>', '&>|']);

/** The state of one walk: what it found so far and the folders the next command may run in. */
type Walk = {
  readonly source: string;
  readonly options: { readonly cwd: string; readonly homeDir: string };
  readonly concerns: string[];
  readonly commands: ShellCommand[];
  readonly redirects: ShellRedirect[];
  readonly arithmeticNames: Set<string>;
  /** The folders the next command may run in; `undefined` when a `cd` made them unknowable. */
  cwds: readonly string[] | undefined;
};

/** Creates the walk; `walk(root)` fills `commands`, `redirects` and `arithmeticNames`. */
export function createWalker(
  source: string,
  options: { readonly cwd: string; readonly homeDir: string },
  concerns: string[],
) {
  const w: Walk = {
    source,
    options,
    concerns,
    commands: [],
    redirects: [],
    arithmeticNames: new Set<string>(),
    cwds: [options.cwd],
  };
  return {
    commands: w.commands,
    redirects: w.redirects,
    arithmeticNames: w.arithmeticNames,
    walk: (node: Node, nested: boolean) => walk(w, node, nested),
  };
}

function concern(w: Walk, reason: string): void {
  if (!w.concerns.includes(reason)) w.concerns.push(reason);
}

function isolated(w: Walk, node: Node, nested: boolean): void {
  const saved = w.cwds;
  walk(w, node, nested);
  w.cwds = saved;
}

function sinkFor(w: Walk, nested: boolean): WordSink {
  void nested;
  return {
    nested: (node) => {
      for (const child of node.namedChildren) if (child !== null) isolated(w, child, true);
    },
    concern: (reason) => concern(w, reason),
    arithmeticName: (name) => w.arithmeticNames.add(name),
  };
}

/** Reads an assignment; a subscript in its name (`a[$(cmd)]=1`) has its commands checked too. */
function readAssignment(node: Node, sink: WordSink): ShellAssignment {
  const nameNode = node.childForFieldName('name');
  if (nameNode?.type === 'subscript') nestAll(nameNode, sink);
  const valueNode = node.childForFieldName('value');
  return {
    name: nameNode?.text ?? '',
    value: valueNode ? readWord(valueNode, sink) : { value: '', static: true, glob: false, quoted: false, source: '' },
  };
}

function applyCd(w: Walk, words: readonly ShellWord[]): void {
  const target = words[1];
  if (words.length > 2 || w.cwds === undefined) {
    w.cwds = undefined;
    return;
  }
  if (target === undefined) {
    w.cwds = [...new Set([...w.cwds, w.options.homeDir])];
    return;
  }
  if (!target.static || target.glob || target.value === '-' || target.value.startsWith('-')) {
    w.cwds = undefined;
    return;
  }
  const next = w.cwds.map((base) => absolutePath(target.value, { baseDir: base, homeDir: w.options.homeDir }));
  w.cwds = [...new Set([...w.cwds, ...next])];
}

/** Reads a redirection; returns the words the grammar put after its target (`cat < in x`: `x`), which are command arguments. */
function readRedirect(w: Walk, node: Node, nested: boolean): ShellWord[] {
  const sink = sinkFor(w, nested);
  if (node.type === 'heredoc_redirect') {
    // The grammar puts the rest of the line after `<<EOF` inside the redirect: the command's other
    // words and redirections, and whatever follows it (`| cmd`, `&& cmd`), which bash runs too.
    const extra: ShellWord[] = [];
    for (const child of node.namedChildren) {
      if (child === null || child.type === 'heredoc_start' || child.type === 'heredoc_end') continue;
      if (child.type === 'heredoc_body') {
        for (const part of child.namedChildren)
          if (part !== null && part.type !== 'heredoc_content') readWord(part, sink);
      } else if (REDIRECT_NODES.has(child.type)) {
        extra.push(...readRedirect(w, child, nested));
      } else if (WORD_NODES.has(child.type)) {
        extra.push(readWord(child, sink));
      } else {
        walk(w, child, nested);
      }
    }
    return extra;
  }
  if (node.type === 'herestring_redirect') {
    for (const child of node.namedChildren) if (child !== null) readWord(child, sink);
    return [];
  }
  let operator = '';
  let target: ShellWord | undefined;
  const extra: ShellWord[] = [];
  for (const child of node.children) {
    if (child === null) continue;
    if (!child.isNamed) operator = child.type;
    else if (child.type === 'file_descriptor') continue;
    // The first word is the target; bash gives the rest to the command.
    else if (target === undefined) target = readWord(child, sink);
    else extra.push(readWord(child, sink));
  }
  if (target === undefined) return extra;
  const duplicate = (operator === '>&' || operator === '<&') && /^(\d+-?|-)$/.test(target.value);
  if (duplicate) return extra;
  w.redirects.push({ operator, target, writes: WRITE_OPERATORS.has(operator), cwds: w.cwds });
  return extra;
}

function finishCommand(
  w: Walk,
  part: { readonly assignments: ShellAssignment[]; readonly words: ShellWord[] },
  text: string,
  nested: boolean,
): void {
  // A bare `!` the grammar left as a word (after a line break it did not end the command at) is
  // bash's negation: rules see the rest (`! rm -rf x`). A quoted or escaped one is a program's name.
  const first = part.words[0];
  if (first?.static && first.source === '!' && part.words.length > 1) part = { ...part, words: part.words.slice(1) };
  w.commands.push({ assignments: part.assignments, words: part.words, text, cwds: w.cwds, nested });
  const name = part.words[0];
  if (name?.static && name.value === 'cd') applyCd(w, part.words);
  else if (name?.static && (name.value === 'pushd' || name.value === 'popd')) w.cwds = undefined;
}

function readCommand(w: Walk, node: Node, nested: boolean): void {
  const sink = sinkFor(w, nested);
  let part = { assignments: [] as ShellAssignment[], words: [] as ShellWord[] };
  let partStart = node.startIndex;
  let previousEnd: number | undefined;
  for (const child of node.children) {
    if (child === null) continue;
    // The grammar sometimes reads a newline inside a pipeline as a space (`ls | ls | ls⏎rm x`
    // becomes `ls rm x`); bash ends the command there. Split it, and do not vouch for the rest.
    if (previousEnd !== undefined && /(^|[^\\])\n/.test(w.source.slice(previousEnd, child.startIndex))) {
      concern(w, 'a line break the grammar did not read as the end of a command');
      finishCommand(w, part, w.source.slice(partStart, previousEnd), nested);
      part = { assignments: [], words: [] };
      partStart = child.startIndex;
    }
    previousEnd = child.endIndex;
    switch (child.type) {
      case 'variable_assignment':
        part.assignments.push(readAssignment(child, sink));
        break;
      case 'command_name': {
        const inner = child.namedChild(0);
        if (inner) part.words.push(readWord(inner, sink));
        break;
      }
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        part.words.push(...readRedirect(w, child, nested));
        break;
      case 'comment':
        break;
      case 'ERROR':
        if (child.text === '\\$' && child.nextSibling?.type === 'subshell') {
          // `echo \$(pwd)`: bash rejects the line; read as `echo $` and the subshell `(pwd)`.
          part.words.push({ value: '$', static: true, glob: false, quoted: true, source: child.text });
        } else {
          part.words.push(readWord(child, sink));
        }
        break;
      case 'subshell':
        if (child.previousSibling?.type === 'ERROR') isolated(w, child, nested);
        else part.words.push(readWord(child, sink));
        break;
      default:
        if (child.isNamed) part.words.push(readWord(child, sink));
        else if (child.type !== '=') part.words.push(readWord(child, sink));
    }
  }
  finishCommand(w, part, w.source.slice(partStart, node.endIndex), nested);
}

function readDeclaration(w: Walk, node: Node, nested: boolean): void {
  const sink = sinkFor(w, nested);
  const words: ShellWord[] = [];
  for (const child of node.children) {
    if (child === null) continue;
    if (!child.isNamed) {
      words.push({ value: child.type, static: true, glob: false, quoted: false, source: child.type });
    } else if (child.type === 'variable_assignment') {
      const nameNode = child.childForFieldName('name');
      if (nameNode?.type === 'subscript') nestAll(nameNode, sink);
      const valueNode = child.childForFieldName('value');
      const value = valueNode ? readWord(valueNode, sink) : undefined;
      const isStatic = value?.static ?? true;
      words.push({
        value: child.text,
        static: isStatic,
        glob: false,
        quoted: value?.quoted ?? false,
        source: child.text,
      });
    } else {
      words.push(readWord(child, sink));
    }
  }
  w.commands.push({ assignments: [], words, text: node.text, cwds: w.cwds, nested });
}

/** `[ -f x -a ! -v y ]`: the grammar parses the test as an expression; bash gives `[` the words in order. */
function readTestCommand(w: Walk, node: Node, nested: boolean): void {
  const sink = sinkFor(w, nested);
  const words: ShellWord[] = [];
  const leaves = (part: Node): void => {
    if (EXPRESSION_NODES.has(part.type)) {
      for (const child of part.children) if (child !== null) leaves(child);
    } else if (!part.isNamed || part.type === 'test_operator') {
      words.push({ value: part.text, static: true, glob: false, quoted: false, source: part.text });
    } else {
      words.push(readWord(part, sink));
    }
  };
  for (const child of node.children) if (child !== null) leaves(child);
  w.commands.push({ assignments: [], words, text: node.text, cwds: w.cwds, nested });
}

function walkSequence(w: Walk, node: Node, nested: boolean): void {
  let before = w.cwds;
  for (const child of node.children) {
    if (child === null) continue;
    if (child.type === '&') {
      w.cwds = before;
      continue;
    }
    if (!child.isNamed) continue;
    before = w.cwds;
    walk(w, child, nested);
  }
}

function walk(w: Walk, node: Node, nested: boolean): void {
  if (node.isMissing || node.type === 'ERROR') {
    concern(w, 'the command could not be parsed completely');
  }
  if (SEQUENCE_NODES.has(node.type)) {
    walkSequence(w, node, nested);
    return;
  }
  switch (node.type) {
    case 'command':
      readCommand(w, node, nested);
      return;
    case 'declaration_command':
    case 'unset_command':
      readDeclaration(w, node, nested);
      return;
    case 'variable_assignment':
    case 'variable_assignments': {
      const sink = sinkFor(w, nested);
      const assignments: ShellAssignment[] = [];
      const items = node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((child) => child !== null);
      for (const item of items) assignments.push(readAssignment(item, sink));
      w.commands.push({ assignments, words: [], text: node.text, cwds: w.cwds, nested });
      return;
    }
    case 'pipeline': {
      const saved = w.cwds;
      for (const child of node.namedChildren) if (child !== null) isolated(w, child, nested);
      w.cwds = saved;
      return;
    }
    case 'subshell':
      for (const child of node.namedChildren) if (child !== null) isolated(w, child, nested);
      return;
    case 'negated_command':
      for (const child of node.namedChildren) if (child !== null) walk(w, child, nested);
      return;
    case 'test_command':
      // `[ … ]` is the `[` builtin with plain words; `[[ … ]]` has its own rules (patterns, arithmetic).
      if (node.child(0)?.type === '[') {
        readTestCommand(w, node, nested);
        return;
      }
      concern(w, describeShellSyntax('test_command'));
      extract(w, node, nested);
      return;
    case 'redirected_statement': {
      let body: Node | undefined;
      for (const child of node.children) {
        if (child === null) continue;
        if (
          child.type === 'file_redirect' ||
          child.type === 'heredoc_redirect' ||
          child.type === 'herestring_redirect'
        ) {
          const extra = readRedirect(w, child, nested);
          const owner =
            body?.type === 'command' ? w.commands.findLastIndex((command) => command.text === body?.text) : -1;
          if (extra.length > 0 && owner >= 0) {
            // `cat < in x`: bash gives `x` to the command.
            const command = w.commands[owner] as ShellCommand;
            w.commands[owner] = { ...command, words: [...command.words, ...extra] };
          } else if (extra.length > 0) {
            // Arguments after a redirect of a compound statement: they cannot be given back to a command here.
            concern(
              w,
              `words after a redirection (${extra
                .map((word) => word.source)
                .join(' ')
                .slice(0, 80)})`,
            );
            for (const word of extra) w.redirects.push({ operator: '<', target: word, writes: false, cwds: w.cwds });
          }
        } else if (child.isNamed) {
          body = child;
          walk(w, child, nested);
        }
      }
      return;
    }
    default:
      if (IGNORED_NODES.has(node.type)) return;
      concern(w, describeShellSyntax(node.type));
      extract(w, node, nested);
  }
}

/** Best-effort extraction of commands from syntax the walker does not vouch for. */
function extract(w: Walk, node: Node, nested: boolean): void {
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (
      child.type === 'command' ||
      SEQUENCE_NODES.has(child.type) ||
      child.type === 'pipeline' ||
      child.type === 'redirected_statement'
    ) {
      walk(w, child, nested);
    } else if (child.type === 'command_substitution' || child.type === 'process_substitution') {
      for (const inner of child.namedChildren) if (inner !== null) isolated(w, inner, true);
    } else {
      extract(w, child, nested);
    }
  }
}
