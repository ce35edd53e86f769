import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** Programs that run the script named after them: the script must exist, not be executable. */
const INTERPRETERS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'node', 'python', 'python3', 'ruby', 'perl']);

/**
 * Why a command hook's script cannot run, checked at start so a hook that would never protect
 * anything is named at once: the first word of the command (or the script after an interpreter),
 * with `$VAR` and `${VAR}` from `env` expanded and quotes removed, when it is a path that does
 * not exist or is not executable. `undefined` when the command looks runnable or is not a plain
 * path (a program on PATH, a shell construct): those are judged by how they exit.
 */
export function hookScriptProblem(
  command: string,
  options: { readonly env: Readonly<Record<string, string | undefined>>; readonly cwd: string },
): string | undefined {
  const words = leadingWords(command, options.env);
  if (words === undefined || words.length === 0) return undefined;
  const [first, second] = words;
  const interpreted = INTERPRETERS.has(first!.split('/').pop() ?? '') && second !== undefined && second.includes('/');
  const script = interpreted ? second! : first!;
  if (!script.includes('/')) return undefined;
  const path = isAbsolute(script) ? script : resolve(options.cwd, script);
  try {
    if (!statSync(path).isFile()) return `its script ${path} is not a file`;
  } catch {
    return `its script ${path} does not exist`;
  }
  if (interpreted) return undefined;
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return `its script ${path} is not executable (chmod +x it, or run it through its interpreter)`;
  }
}

/**
 * The first two words of a command line, expanded, or `undefined` when the line starts with
 * something this reading does not follow (a substitution, an unknown variable, a shell keyword).
 */
function leadingWords(command: string, env: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const words: string[] = [];
  let index = 0;
  while (words.length < 2) {
    while (index < command.length && /\s/.test(command[index]!)) index++;
    if (index >= command.length) break;
    let word = '';
    while (index < command.length && !/\s/.test(command[index]!)) {
      const char = command[index]!;
      if (';|&<>()`'.includes(char)) return words.length > 0 ? words : undefined;
      if (char === "'") {
        const end = command.indexOf("'", index + 1);
        if (end === -1) return undefined;
        word += command.slice(index + 1, end);
        index = end + 1;
      } else if (char === '"') {
        const end = command.indexOf('"', index + 1);
        if (end === -1) return undefined;
        const expanded = expand(command.slice(index + 1, end), env);
        if (expanded === undefined) return undefined;
        word += expanded;
        index = end + 1;
      } else if (char === '$') {
        const match = /^\$(?:\{(\w+)\}|(\w+))/.exec(command.slice(index));
        const value = match ? env[match[1] ?? match[2]!] : undefined;
        if (!match || value === undefined) return undefined;
        word += value;
        index += match[0].length;
      } else {
        word += char;
        index++;
      }
    }
    words.push(word);
  }
  return words;
}

function expand(text: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  let unknown = false;
  const out = text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_whole, braced: string | undefined, bare: string | undefined) => {
    const value = env[braced ?? bare!];
    if (value === undefined) unknown = true;
    return value ?? '';
  });
  return unknown || out.includes('$(') || out.includes('`') ? undefined : out;
}
