import { createRequire } from 'node:module';
import type { Node, Parser } from 'web-tree-sitter';
import { UNSAFE_CHARACTERS } from './path-resolution.js';
import { heredocConcerns } from './heredoc-checks.js';
import { joinLineContinuations, separateGluedLines } from './line-continuations.js';
import type { ShellScript } from './shell-script.js';
import { createWalker } from './shell-walker.js';
import { treeDepthExceeds } from './tree-depth.js';

export type { ShellAssignment, ShellCommand, ShellRedirect, ShellScript } from './shell-script.js';

/** Commands longer than this are never auto-approved (deny rules are still checked). */
export const MAX_COMMAND_LENGTH = 10_000;

/**
 * The deepest grammar tree of a command line that is analyzed: each subshell, substitution, block
 * or `&&`/`||` operator adds a level or more (200 commands joined by `&&` are about 200 levels).
 * The walks over the tree recurse, so a deeper line is not walked at all; it becomes a concern
 * (asked, denied when no one can answer), never a stack overflow.
 */
export const MAX_SHELL_NESTING = 500;

/** The concern of a command line nested deeper than {@link MAX_SHELL_NESTING}. */
export const TOO_DEEP_CONCERN = `the command nests more than ${MAX_SHELL_NESTING} levels deep (subshells, substitutions, blocks or a chain of && and ||), deeper than the analysis reads; split it into several commands`;

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/**
 * Loads the bash grammar (WebAssembly) once per process. Await it at startup; after it resolves,
 * {@link parseShell} and Bash permission decisions are synchronous. Safe to call repeatedly.
 */
export function initShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // Loaded here, not at import: the grammar's runtime is large and only Bash decisions need it.
    const { Language, Parser } = await import('web-tree-sitter');
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

/**
 * Parses a command line into its simple commands and redirections. Raw control characters,
 * U+2028/2029, bidi and zero-width characters, over-long input, parse errors, a tree nested deeper
 * than {@link MAX_SHELL_NESTING} (then nothing is extracted) and any syntax
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
  if (tree === null) return unread(concerns, 'the command could not be parsed');
  if (treeDepthExceeds(tree.rootNode, MAX_SHELL_NESTING)) {
    tree.delete();
    return unread(concerns, TOO_DEEP_CONCERN);
  }
  // Read line breaks as bash does where the grammar does not; each rewrite is parsed again.
  for (const normalise of [joinLineContinuations, separateGluedLines]) {
    const normalised = normalise(source, tree.rootNode);
    if (normalised === source) continue;
    tree.delete();
    source = normalised;
    tree = parser.parse(source);
    if (tree === null) return unread(concerns, 'the command could not be parsed');
    if (treeDepthExceeds(tree.rootNode, MAX_SHELL_NESTING)) {
      tree.delete();
      return unread(concerns, TOO_DEEP_CONCERN);
    }
  }
  try {
    const walker = createWalker(source, options, concerns);
    if (tree.rootNode.hasError && !onlyEscapedDollarErrors(tree.rootNode))
      concerns.push('the command could not be parsed completely');
    if (source.includes('<<')) for (const concern of heredocConcerns(tree.rootNode, source)) concerns.push(concern);
    walker.walk(tree.rootNode, false);
    return {
      commands: walker.commands,
      redirects: walker.redirects,
      concerns,
      arithmeticNames: [...walker.arithmeticNames],
    };
  } finally {
    tree.delete();
  }
}

/** A command line the walk did not read: no commands, and the reason among its concerns. */
function unread(concerns: readonly string[], reason: string): ShellScript {
  return { commands: [], redirects: [], concerns: [...concerns, reason], arithmeticNames: [] };
}

/**
 * Whether every parse error is an escaped `\$` right before `(` (`echo \$(pwd)`). Bash rejects
 * that line as a syntax error and runs none of it; the walk reads it as `echo $` and a subshell
 * `(pwd)`, which covers more than bash runs, so it is no reason to ask.
 */
function onlyEscapedDollarErrors(root: Node): boolean {
  const errors: Node[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ERROR' || node.isMissing) errors.push(node);
    else for (const child of node.children) if (child !== null && (child.hasError || child.isMissing)) visit(child);
  };
  visit(root);
  return (
    errors.length > 0 &&
    errors.every((error) => error.type === 'ERROR' && error.text === '\\$' && error.nextSibling?.type === 'subshell')
  );
}
