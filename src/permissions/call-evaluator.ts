import type { CallSubject } from '../contract/gates.js';
import { isShellParserReady, parseShell, type ShellScript } from './bash-parser.js';
import type { Evaluation } from './evaluation.js';
import { shellFolder } from './shell-folder.js';
import { evaluateCall, familyOf, type CallScope } from './tool-evaluation.js';

const CACHE_SIZE = 32;

/**
 * Evaluates calls against one session's scope: Bash commands are parsed once (a small cache keyed
 * by folder and command) and judged in the folder the shell was left in.
 */
export function createCallEvaluator(scope: CallScope): {
  readonly evaluate: (subject: CallSubject) => Evaluation;
  /** The call is a Bash call and the shell grammar is not loaded yet. */
  readonly needsParser: (subject: CallSubject) => boolean;
} {
  const homeDir = scope.homeDir;
  const scripts = new Map<string, ShellScript>();

  const scriptFor = (command: string, cwd: string): ShellScript => {
    const key = `${cwd}\u0000${command}`;
    const cached = scripts.get(key);
    if (cached) return cached;
    const script = parseShell(command, { cwd, homeDir });
    if (scripts.size >= CACHE_SIZE) scripts.delete(scripts.keys().next().value as string);
    scripts.set(key, script);
    return script;
  };

  const evaluate = (subject: CallSubject): Evaluation => {
    const family = familyOf(subject.tool, subject.input);
    const input = subject.input;
    const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
    // A command runs where the shell was left by earlier calls (`cd x` in one, `git status` in the
    // next): it is judged there, and git-elsewhere compares that folder to the session folder.
    const shellCwd = family === 'bash' ? shellFolder(subject) : subject.context.cwd;
    const script =
      family === 'bash' && typeof command === 'string' && isShellParserReady()
        ? scriptFor(command, shellCwd)
        : undefined;
    return evaluateCall({ tool: subject.tool, input, cwd: shellCwd, ...(script ? { script } : {}) }, scope);
  };

  const needsParser = (subject: CallSubject): boolean =>
    !isShellParserReady() && familyOf(subject.tool, subject.input) === 'bash';
  return { evaluate, needsParser };
}
