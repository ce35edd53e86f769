import { parseShell, type ShellCommand, type ShellRedirect, type ShellScript } from './bash-parser.js';
import { allowView } from './bash-wrappers.js';
import { embeddedScriptsOf } from './embedded-scripts.js';
import { resolutionReason } from './environment-variables.js';
import { evaluatedCode } from './evaluated-code.js';
import { variablesSetBy } from './shell-assignments.js';
import { shellScriptOf } from './shell-launchers.js';

/**
 * A command line with the scripts it hands to shells expanded into their commands: `sh -c '…'`,
 * `eval`, `trap`, `su -c`, `watch`, … (to a small depth), with the concerns of each script.
 */

/** One command to judge; `transparent`: a shell that only carries a script whose commands are judged instead. */
export type FlatCommand = { readonly command: ShellCommand; readonly transparent: boolean };

/** Every command, redirect and concern of a command line and the scripts inside it. */
export type FlatScript = {
  readonly commands: readonly FlatCommand[];
  readonly redirects: readonly ShellRedirect[];
  readonly concerns: readonly string[];
};

const MAX_NESTED_SHELLS = 3;

/** Commands that change how later commands resolve without naming a variable. */
function builtinResolutionConcern(command: ShellCommand): string | undefined {
  const [first, ...rest] = command.words;
  if (!first?.static) return undefined;
  // `hash -p /tmp/x git` makes `git` run /tmp/x; `enable -f lib.so name` loads a builtin from a library.
  if (first.value === 'hash' && rest.some((word) => /^-[a-z]*p/.test(word.value)))
    return 'hash -p sets the program a later command name runs';
  if (first.value === 'enable' && rest.some((word) => /^-[a-z]*f/.test(word.value)))
    return 'enable -f loads a builtin from a library';
  return undefined;
}

/** Concerns of one command on its own: variables that change what later commands run. */
function commandConcerns(command: ShellCommand): string[] {
  const concerns: string[] = [];
  for (const set of variablesSetBy(command)) {
    const reason = resolutionReason(set.name);
    if (reason !== undefined) concerns.push(`${set.by} sets ${set.name.slice(0, 40)}, which changes ${reason}`);
  }
  const builtin = builtinResolutionConcern(command);
  if (builtin !== undefined) concerns.push(builtin);
  return concerns;
}

/** Expands `sh -c '…'` and the other embedded scripts into the commands of their scripts. */
export function flatten(
  script: ShellScript,
  options: { readonly homeDir: string; readonly depth: number },
): FlatScript {
  const commands: FlatCommand[] = [];
  const redirects = [...script.redirects];
  const evaluated = evaluatedCode(script.commands, new Set(script.arithmeticNames));
  const concerns = [...script.concerns, ...evaluated.concerns];
  const nest = (text: string, command: ShellCommand): void => {
    const cwd = command.cwds?.[command.cwds.length - 1] ?? '/';
    const nested = flatten(parseShell(text, { cwd, homeDir: options.homeDir }), {
      ...options,
      depth: options.depth + 1,
    });
    commands.push(...nested.commands);
    redirects.push(...nested.redirects);
    concerns.push(...nested.concerns);
  };
  // Text bash evaluates as arithmetic expands `$(…)` as a double-quoted string would: deny rules see those commands.
  if (options.depth < MAX_NESTED_SHELLS) {
    for (const { text, command } of evaluated.texts) nest(`: "${text.replace(/["\\]/g, '\\$&')}"`, command);
  }
  for (const command of script.commands) {
    concerns.push(...commandConcerns(command));
    const view = allowView(command);
    const inner = shellScriptOf(view.argv);
    if (inner === undefined) {
      commands.push({ command, transparent: false });
      // `eval`, `trap`, `alias`, `env sh -c`…: the text they run is checked too; the command itself still needs approval.
      const embedded = embeddedScriptsOf(command);
      if (
        embedded === 'dynamic' ||
        (embedded.length > 0 && (options.depth >= MAX_NESTED_SHELLS || command.cwds === undefined))
      ) {
        concerns.push(`a command runs text that cannot be read (${command.text.slice(0, 80)})`);
        continue;
      }
      for (const text of embedded) nest(text, command);
      continue;
    }
    if (inner === 'dynamic' || options.depth >= MAX_NESTED_SHELLS || command.cwds === undefined) {
      concerns.push(`a shell runs a script that cannot be read (${command.text.slice(0, 80)})`);
      commands.push({ command, transparent: false });
      continue;
    }
    if (inner.unseenStartup !== undefined)
      concerns.push(`a shell runs a startup file nobody has seen (${inner.unseenStartup.slice(0, 60)})`);
    // A shell is only a carrier for its script when nothing else changes what it runs: no variable
    // outside the safe list in front of it and no startup files (`-i`, `-l`, `--rcfile`).
    const transparent =
      view.unsafeAssignment === undefined && inner.startup === undefined && inner.unseenStartup === undefined;
    commands.push({ command, transparent });
    nest(inner.script, command);
  }
  return { commands, redirects, concerns };
}
