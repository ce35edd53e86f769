import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { UNSAFE_CHARACTERS, absolutePath } from './path-resolution.js';
import { joinLineContinuations, separateGluedLines } from './bash-source-fixes.js';
import { readWord, type ShellWord, type WordSink } from './shell-words.js';

/** A leading `NAME=value` on a command. */
export type ShellAssignment = { readonly name: string; readonly value: ShellWord };

/** One simple command, wherever it sits (list, pipeline, subshell, substitution, …). */
export type ShellCommand = {
  readonly assignments: readonly ShellAssignment[];
  readonly words: readonly ShellWord[];
  readonly text: string;
  /** Every folder the command may run in (after `cd`s); `undefined` when that cannot be known. */
  readonly cwds: readonly string[] | undefined;
  /** Inside `$(…)`, backticks or `<(…)`. */
  readonly nested: boolean;
};

/** A redirection to or from a file (descriptor duplications are not listed). */
export type ShellRedirect = {
  readonly operator: string;
  readonly target: ShellWord;
  readonly writes: boolean;
  readonly cwds: readonly string[] | undefined;
};

/** Everything a command line does that permissions look at. */
export type ShellScript = {
  readonly commands: readonly ShellCommand[];
  readonly redirects: readonly ShellRedirect[];
  /** Reasons the analysis cannot vouch for the command (each one fails closed). */
  readonly concerns: readonly string[];
};

/** Commands longer than this are never auto-approved (deny rules are still checked). */
export const MAX_COMMAND_LENGTH = 10_000;

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/**
 * Loads the bash grammar (WebAssembly) once per process. Await it at startup; after it resolves,
 * {@link parseShell} and Bash permission decisions are synchronous. Safe to call repeatedly.
 */
export function initShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const instance = new Parser();
    instance.setLanguage(language);
    parser = instance;
    return instance;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading.then(() => undefined);
}

/** Whether {@link initShellParser} has finished. */
export function isShellParserReady(): boolean {
  return parser !== undefined;
}

const SEQUENCE_NODES: ReadonlySet<string> = new Set(['program', 'list', 'compound_statement']);
const IGNORED_NODES: ReadonlySet<string> = new Set(['comment', 'heredoc_start', 'heredoc_end', 'file_descriptor']);
const WRITE_OPERATORS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>', '&>|']);

/**
 * Parses a command line into its simple commands and redirections. Raw control characters,
 * U+2028/2029, bidi and zero-width characters, over-long input, parse errors and any syntax
 * outside the understood set become `concerns`; commands are still extracted as well as possible
 * so deny rules always apply. Throws only when {@link initShellParser} has not completed.
 */
export function parseShell(command: string, options: { readonly cwd: string; readonly homeDir: string }): ShellScript {
  if (parser === undefined) throw new Error('initShellParser() must complete before parseShell()');
  const concerns: string[] = [];
  let source = command;
  if (UNSAFE_CHARACTERS.test(source)) {
    concerns.push('the command contains control, line-separator, bidi or zero-width characters');
    source = source.replace(new RegExp(UNSAFE_CHARACTERS.source, 'g'), '\n');
  }
  if (source.length > MAX_COMMAND_LENGTH) concerns.push(`the command is longer than ${MAX_COMMAND_LENGTH} characters`);
  let tree = parser.parse(source);
  if (tree === null) return { commands: [], redirects: [], concerns: [...concerns, 'the command could not be parsed'] };
  // Read the command as bash does where the grammar does not: each step is parsed again.
  for (const normalise of [joinLineContinuations, separateGluedLines]) {
    const normalised = normalise(source, tree.rootNode);
    if (normalised === source) continue;
    tree.delete();
    source = normalised;
    tree = parser.parse(source);
    if (tree === null) return { commands: [], redirects: [], concerns: [...concerns, 'the command could not be parsed'] };
  }
  try {
    const walker = createWalker(source, options, concerns);
    if (tree.rootNode.hasError) concerns.push('the command could not be parsed completely');
    walker.walk(tree.rootNode, false);
    return { commands: walker.commands, redirects: walker.redirects, concerns };
  } finally {
    tree.delete();
  }
}

function createWalker(source: string, options: { readonly cwd: string; readonly homeDir: string }, concerns: string[]) {
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

  const aloneOnItsLine = (end: Node, stripsTabs: boolean): boolean => {
    let start = end.startIndex;
    while (stripsTabs && source[start - 1] === '\t') start -= 1;
    return (start === 0 || source[start - 1] === '\n') && (end.endIndex === source.length || source[end.endIndex] === '\n');
  };

  const sinkFor = (nested: boolean): WordSink => ({
    nested: (node) => {
      for (const child of node.namedChildren) if (child !== null) isolated(child, true);
      void nested;
    },
    concern,
  });

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
      readHeredoc(node, nested);
      return [];
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

  /**
   * A here-document. The grammar puts what follows its delimiter on the same line inside it:
   * `cat <<EOF | grep x`, `cat <<EOF && rm y`, `cat <<EOF > out`, and for `cat <<EOF; rm y` the
   * bare words `rm y` after a delimiter read as `EOF;`. All of it runs, so all of it is read.
   */
  const readHeredoc = (node: Node, nested: boolean): void => {
    const sink = sinkFor(nested);
    const stripsTabs = node.children.some((child) => child?.type === '<<-');
    const stray: ShellWord[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      switch (child.type) {
        case 'heredoc_start':
          if (/[;&|<>()\s]/.test(child.text)) concern('a here-document delimiter the grammar could not separate from what follows it');
          break;
        case 'heredoc_end':
          // Bash ends a here-document only at a line that is the delimiter alone (`EOF || x` is body).
          if (!aloneOnItsLine(child, stripsTabs)) concern('a here-document ends where bash would not end it');
          break;
        case 'heredoc_body':
          for (const part of child.namedChildren) if (part !== null && part.type !== 'heredoc_content') readWord(part, sink);
          break;
        case 'file_redirect':
        case 'herestring_redirect':
        case 'heredoc_redirect':
          stray.push(...readRedirect(child, nested));
          break;
        case 'command':
        case 'pipeline':
        case 'list':
        case 'redirected_statement':
        case 'subshell':
        case 'compound_statement':
        case 'negated_command':
          walk(child, nested);
          break;
        default:
          if (child.type === 'ERROR') concern('the command could not be parsed completely');
          else if (child.isNamed) stray.push(readWord(child, sink));
      }
    }
    if (stray.length > 0) {
      concern(`words after a here-document's delimiter (${stray.map((word) => word.source).join(' ').slice(0, 80)})`);
      commands.push({ assignments: [], words: stray, text: stray.map((word) => word.source).join(' '), cwds, nested });
    }
  };

  const finishCommand = (part: { readonly assignments: ShellAssignment[]; readonly words: ShellWord[] }, text: string, nested: boolean): void => {
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
        case 'variable_assignment': {
          const name = child.childForFieldName('name')?.text ?? '';
          const valueNode = child.childForFieldName('value');
          const value = valueNode ? readWord(valueNode, sink) : { value: '', static: true, glob: false, quoted: false, source: '' };
          part.assignments.push({ name, value });
          break;
        }
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
        const valueNode = child.childForFieldName('value');
        const value = valueNode ? readWord(valueNode, sink) : undefined;
        const isStatic = value?.static ?? true;
        words.push({ value: child.text, static: isStatic, glob: false, quoted: value?.quoted ?? false, source: child.text });
      } else {
        words.push(readWord(child, sink));
      }
    }
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
        const items = node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((child) => child !== null);
        for (const item of items) {
          const valueNode = item.childForFieldName('value');
          assignments.push({
            name: item.childForFieldName('name')?.text ?? '',
            value: valueNode ? readWord(valueNode, sink) : { value: '', static: true, glob: false, quoted: false, source: '' },
          });
        }
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
      case 'redirected_statement': {
        let body: Node | undefined;
        for (const child of node.children) {
          if (child === null) continue;
          if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
            const extra = readRedirect(child, nested);
            const owner = body?.type === 'command' ? commands.findLastIndex((command) => command.text === body?.text) : -1;
            if (extra.length > 0 && owner >= 0) {
              // `cat < in x`: bash gives `x` to the command.
              const command = commands[owner] as ShellCommand;
              commands[owner] = { ...command, words: [...command.words, ...extra] };
            } else if (extra.length > 0) {
              // Arguments after a redirect of a compound statement: they cannot be given back to a command here.
              concern(`words after a redirection (${extra.map((word) => word.source).join(' ').slice(0, 80)})`);
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
      if (child.type === 'command' || SEQUENCE_NODES.has(child.type) || child.type === 'pipeline' || child.type === 'redirected_statement') {
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
    walk,
  };
}
