import type { ShellCommand } from './bash-parser.js';
import { allowView, basename, denyForms, programName } from './bash-wrappers.js';
import { COMMAND_VARIABLES } from './environment-variables.js';
import { launcherScriptOf, shellScriptOf } from './shell-launchers.js';
import type { ShellWord } from './shell-words.js';

/** `git -c key=value` settings whose value is a command git runs. */
const GIT_COMMAND_CONFIG =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|pager\.[^=]*|diff\.external|sequence\.editor|gpg\.program|credential\.helper|diff\.[^=.]*\.(?:textconv|command)|filter\.[^=.]*\.(?:clean|smudge|process))=\s*!?(.*)$/is;

/**
 * Command text that a command hands to a shell to run later or elsewhere, for deny and ask rules:
 * `eval …`, `trap 'cmd' SIG`, `alias x='cmd'`, `complete -C 'cmd'`, `bind -x '"\C-x":cmd'`,
 * `git -c alias.x='!cmd'`, and `sh -c` behind a wrapper only deny rules look through (`env`,
 * `sudo`). The outer command is still judged on its own.
 */
export function embeddedScriptsOf(command: ShellCommand): readonly string[] | 'dynamic' {
  const argv = command.words;
  const name = programName(argv[0]);
  const scripts: string[] = [];
  // `PAGER='rm -rf x' git log`, `GIT_SSH_COMMAND=… git fetch`: variables whose value git or a tool runs.
  for (const assignment of command.assignments) {
    if (!COMMAND_VARIABLES.test(assignment.name)) continue;
    if (!assignment.value.static) return 'dynamic';
    scripts.push(assignment.value.value);
  }
  const fromBuiltin = builtinScripts(name, argv.slice(1));
  if (fromBuiltin === 'dynamic') return 'dynamic';
  scripts.push(...fromBuiltin);
  const { argv: unwrapped, layers } = denyForms(command);
  // `su -c 'cmd'`, `script -c 'cmd'`, `flock f -c 'cmd'`, `watch 'cmd'` (also behind `sudo`): text handed to `sh -c`.
  for (const layer of layers) {
    const launched = launcherScriptOf(layer);
    if (launched === 'dynamic') return 'dynamic';
    if (launched !== undefined) scripts.push(launched);
  }
  if (programName(unwrapped[0]) !== undefined && basename(programName(unwrapped[0]) as string) === 'find') {
    // `find . -exec sh -c 'rm -rf …' \;`: the script find hands to a shell.
    for (let index = 1; index < unwrapped.length; index += 1) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(unwrapped[index]?.value ?? '')) continue;
      const script = shellScriptOf(unwrapped.slice(index + 1));
      if (script === 'dynamic') return 'dynamic';
      if (script !== undefined) scripts.push(script.script);
    }
  }
  const inner = shellScriptOf(unwrapped);
  if (inner === 'dynamic') return 'dynamic';
  if (inner !== undefined && shellScriptOf(allowView(command).argv) === undefined) scripts.push(inner.script);
  return scripts;
}

/**
 * Command text the shell builtins (and git) given these words keep to run later: `eval`, `trap`,
 * `alias`, `complete -C`, `bind -x`, `mapfile -C`, declarations of command variables, `env -S`,
 * `git -c alias.x=!cmd`. `dynamic` when some of it is not known before run time.
 */
function builtinScripts(name: string | undefined, words: readonly ShellWord[]): string[] | 'dynamic' {
  const scripts: string[] = [];
  const staticOnly = (list: readonly ShellWord[]): boolean => list.every((word) => word.static);
  switch (name === undefined ? undefined : basename(name)) {
    case 'env':
    case 'export':
    case 'declare':
    case 'typeset':
    case 'readonly':
    case 'local': {
      // `env -S 'cmd args'` splits the string with quotes as a shell would: read it as a command line.
      const split =
        name === 'env'
          ? words.findIndex(
              (word) =>
                word.value === '-S' || word.value.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(word.value),
            )
          : -1;
      if (split >= 0) {
        const word = words[split] as ShellWord;
        const inline = word.value.startsWith('--split-string=')
          ? word.value.slice(15)
          : word.value.replace(/^-[a-zA-Z]*S/, '');
        const text = inline !== '' ? { ...word, value: inline } : words[split + 1];
        if (text !== undefined && !text.static) return 'dynamic';
        if (text !== undefined) scripts.push(text.value);
      }
      for (const word of words) {
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word.value);
        if (!assignment || !COMMAND_VARIABLES.test(assignment[1] as string)) continue;
        if (!word.static) return 'dynamic';
        // Declarations keep the value's source text: drop one level of quotes.
        const text = assignment[2] as string;
        scripts.push(word.value === word.source ? text.replace(/^'([\s\S]*)'$|^"([\s\S]*)"$/, '$1$2') : text);
      }
      break;
    }
    case 'eval':
      if (!staticOnly(words)) return 'dynamic';
      scripts.push(words.map((word) => word.value).join(' '));
      break;
    case 'trap':
      if (words[0] !== undefined && !words[0].value.startsWith('-')) {
        if (!words[0].static) return 'dynamic';
        scripts.push(words[0].value);
      }
      break;
    case 'alias':
      for (const word of words) {
        if (!word.static) return 'dynamic';
        const eq = word.value.indexOf('=');
        if (eq > 0) scripts.push(word.value.slice(eq + 1));
      }
      break;
    case 'complete':
    case 'compgen':
    case 'bind':
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        if (!word.static) return 'dynamic';
        if (word.value === '-C' || word.value === '-x') {
          const next = words[index + 1];
          if (next === undefined) continue;
          if (!next.static) return 'dynamic';
          scripts.push(name === 'bind' ? next.value.replace(/^[^:]*:/, '') : next.value);
        }
      }
      break;
    case 'git':
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        const value =
          word.value === '-c' ? words[index + 1]?.value : word.value.startsWith('-c') ? word.value.slice(2) : undefined;
        const match = value === undefined ? null : /^alias\.[^=]*=\s*!(.*)$/s.exec(value);
        if (match) scripts.push(match[1] as string);
        const program = value === undefined ? null : GIT_COMMAND_CONFIG.exec(value);
        if (program) scripts.push(program[1] as string);
      }
      break;
    case 'mapfile':
    case 'readarray':
      // `mapfile -C 'cmd' x`: bash runs the callback for every chunk of lines it reads.
      for (let index = 0; index < words.length; index += 1) {
        const word = words[index] as ShellWord;
        const callback =
          word.value === '-C'
            ? words[index + 1]
            : /^-C./s.test(word.value)
              ? { ...word, value: word.value.slice(2) }
              : undefined;
        if (callback === undefined) continue;
        if (!callback.static) return 'dynamic';
        scripts.push(callback.value);
      }
      break;
    default:
      break;
  }
  return scripts;
}
