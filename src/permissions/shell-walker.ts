import type { Node } from 'web-tree-sitter';
import { absolutePath } from './path-resolution.js';
import type { ShellAssignment, ShellCommand, ShellRedirect } from './shell-script.js';
import { nestAll, readWord, type ShellWord, type WordSink } from './shell-words.js';

/**
 * The walk over the grammar's tree of one command line: every simple command wherever it sits
 * (lists, pipelines, subshells, substitutions, here-document lines), the folders it may run in
 * after `cd`, its redirections, and concerns for syntax outside the understood set.
 */

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

/** Creates the walk; `walk(root)` fills `commands`, `redirects` and `arithmeticNames`. */
export function createWalker(
  source: string,
  options: { readonly cwd: string; readonly homeDir: string },
  concerns: string[],
) {
  const commands: ShellCommand[] = [];
  const redirects: ShellRedirect[] = [];
  let cwds: readonly string[] | undefined = [options.cwd];

  const concern = (reason: string): void => {
    if (!concerns.includes(reason)) concerns.push(reason);
  };

  const isolated = (node: Node, nested: boolean): void => {
    const saved = cwds;
    walk(node, nested);
    cwds = saved;
  };

  const arithmeticNames = new Set<string>();
  const sinkFor = (nested: boolean): WordSink => ({
    nested: (node) => {
      for (const child of node.namedChildren) if (child !== null) isolated(child, true);
      void nested;
    },
    concern,
    arithmeticName: (name) => arithmeticNames.add(name),
  });

  /** Reads an assignment; a subscript in its name (`a[$(cmd)]=1`) has its commands checked too. */
  const readAssignment = (node: Node, sink: WordSink): ShellAssignment => {
    const nameNode = node.childForFieldName('name');
    if (nameNode?.type === 'subscript') nestAll(nameNode, sink);
    const valueNode = node.childForFieldName('value');
    return {
      name: nameNode?.text ?? '',
      value: valueNode
        ? readWord(valueNode, sink)
        : { value: '', static: true, glob: false, quoted: false, source: '' },
    };
  };

  const applyCd = (words: readonly ShellWord[]): void => {
    const target = words[1];
    if (words.length > 2 || cwds === undefined) {
      cwds = undefined;
      return;
    }
    if (target === undefined) {
      cwds = [...new Set([...cwds, options.homeDir])];
      return;
    }
    if (!target.static || target.glob || target.value === '-' || target.value.startsWith('-')) {
      cwds = undefined;
      return;
    }
    const next = cwds.map((base) => absolutePath(target.value, { baseDir: base, homeDir: options.homeDir }));
    cwds = [...new Set([...cwds, ...next])];
  };

  /** Reads a redirection; returns the words the grammar put after its target (`cat < in x`: `x`), which are command arguments. */
  const readRedirect = (node: Node, nested: boolean): ShellWord[] => {
    const sink = sinkFor(nested);
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
          extra.push(...readRedirect(child, nested));
        } else if (WORD_NODES.has(child.type)) {
          extra.push(readWord(child, sink));
        } else {
          walk(child, nested);
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
    redirects.push({ operator, target, writes: WRITE_OPERATORS.has(operator), cwds });
    return extra;
  };

  const finishCommand = (
    part: { readonly assignments: ShellAssignment[]; readonly words: ShellWord[] },
    text: string,
    nested: boolean,
  ): void => {
    commands.push({ assignments: part.assignments, words: part.words, text, cwds, nested });
    const name = part.words[0];
    if (name?.static && name.value === 'cd') applyCd(part.words);
    else if (name?.static && (name.value === 'pushd' || name.value === 'popd')) cwds = undefined;
  };

  const readCommand = (node: Node, nested: boolean): void => {
    const sink = sinkFor(nested);
    let part = { assignments: [] as ShellAssignment[], words: [] as ShellWord[] };
    let partStart = node.startIndex;
    let previousEnd: number | undefined;
    for (const child of node.children) {
      if (child === null) continue;
      // The grammar sometimes reads a newline inside a pipeline as a space (`ls | ls | ls⏎rm x`
      // becomes `ls rm x`); bash ends the command there. Split it, and do not vouch for the rest.
      if (previousEnd !== undefined && /(^|[^\\])\n/.test(source.slice(previousEnd, child.startIndex))) {
        concern('a line break the grammar did not read as the end of a command');
        finishCommand(part, source.slice(partStart, previousEnd), nested);
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
          part.words.push(...readRedirect(child, nested));
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
          if (child.previousSibling?.type === 'ERROR') isolated(child, nested);
          else part.words.push(readWord(child, sink));
          break;
        default:
          if (child.isNamed) part.words.push(readWord(child, sink));
          else if (child.type !== '=') part.words.push(readWord(child, sink));
      }
    }
    finishCommand(part, source.slice(partStart, node.endIndex), nested);
  };

  const readDeclaration = (node: Node, nested: boolean): void => {
    const sink = sinkFor(nested);
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
    commands.push({ assignments: [], words, text: node.text, cwds, nested });
  };

  /** `[ -f x -a ! -v y ]`: the grammar parses the test as an expression; bash gives `[` the words in order. */
  const readTestCommand = (node: Node, nested: boolean): void => {
    const sink = sinkFor(nested);
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
    commands.push({ assignments: [], words, text: node.text, cwds, nested });
  };

  const walkSequence = (node: Node, nested: boolean): void => {
    let before = cwds;
    for (const child of node.children) {
      if (child === null) continue;
      if (child.type === '&') {
        cwds = before;
        continue;
      }
      if (!child.isNamed) continue;
      before = cwds;
      walk(child, nested);
    }
  };

  const walk = (node: Node, nested: boolean): void => {
    if (node.isMissing || node.type === 'ERROR') {
      concern('the command could not be parsed completely');
    }
    if (SEQUENCE_NODES.has(node.type)) {
      walkSequence(node, nested);
      return;
    }
    switch (node.type) {
      case 'command':
        readCommand(node, nested);
        return;
      case 'declaration_command':
      case 'unset_command':
        readDeclaration(node, nested);
        return;
      case 'variable_assignment':
      case 'variable_assignments': {
        const sink = sinkFor(nested);
        const assignments: ShellAssignment[] = [];
        const items =
          node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((child) => child !== null);
        for (const item of items) assignments.push(readAssignment(item, sink));
        commands.push({ assignments, words: [], text: node.text, cwds, nested });
        return;
      }
      case 'pipeline': {
        const saved = cwds;
        for (const child of node.namedChildren) if (child !== null) isolated(child, nested);
        cwds = saved;
        return;
      }
      case 'subshell':
        for (const child of node.namedChildren) if (child !== null) isolated(child, nested);
        return;
      case 'negated_command':
        for (const child of node.namedChildren) if (child !== null) walk(child, nested);
        return;
      case 'test_command':
        // `[ … ]` is the `[` builtin with plain words; `[[ … ]]` has its own rules (patterns, arithmetic).
        if (node.child(0)?.type === '[') {
          readTestCommand(node, nested);
          return;
        }
        concern('shell syntax that is not analysed (test_command)');
        extract(node, nested);
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
            const extra = readRedirect(child, nested);
            const owner =
              body?.type === 'command' ? commands.findLastIndex((command) => command.text === body?.text) : -1;
            if (extra.length > 0 && owner >= 0) {
              // `cat < in x`: bash gives `x` to the command.
              const command = commands[owner] as ShellCommand;
              commands[owner] = { ...command, words: [...command.words, ...extra] };
            } else if (extra.length > 0) {
              // Arguments after a redirect of a compound statement: they cannot be given back to a command here.
              concern(
                `words after a redirection (${extra
                  .map((word) => word.source)
                  .join(' ')
                  .slice(0, 80)})`,
              );
              for (const word of extra) redirects.push({ operator: '<', target: word, writes: false, cwds });
            }
          } else if (child.isNamed) {
            body = child;
            walk(child, nested);
          }
        }
        return;
      }
      default:
        if (IGNORED_NODES.has(node.type)) return;
        concern(`shell syntax that is not analysed (${node.type})`);
        extract(node, nested);
    }
  };

  /** Best-effort extraction of commands from syntax the walker does not vouch for. */
  const extract = (node: Node, nested: boolean): void => {
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (
        child.type === 'command' ||
        SEQUENCE_NODES.has(child.type) ||
        child.type === 'pipeline' ||
        child.type === 'redirected_statement'
      ) {
        walk(child, nested);
      } else if (child.type === 'command_substitution' || child.type === 'process_substitution') {
        for (const inner of child.namedChildren) if (inner !== null) isolated(inner, true);
      } else {
        extract(child, nested);
      }
    }
  };

  return {
    commands,
    redirects,
    arithmeticNames,
    walk,
  };
}
