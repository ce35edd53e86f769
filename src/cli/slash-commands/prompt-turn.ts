import { ZERO_USAGE, type LoopEvent, type QueryResult } from '../../session/index.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { BUILTIN_COMMAND_WORDS, parseSlashCommand } from '../tui/parse-slash-command.js';
import { loadCustomCommands, type CustomCommand, type CustomCommandList } from './load-custom-commands.js';
import { runCustomCommand } from './run-custom-command.js';

/** Where custom commands are looked up: the project's folder and the person's home. */
export type CommandFolders = { readonly cwd: string; readonly homeDir: string };

/**
 * The custom commands of `where` for `runtime`'s session (the built-in commands' names stay
 * theirs); in a folder nobody trusted, the person's own win over the project's of the same name.
 */
export function customCommandsOf(runtime: Runtime, where: CommandFolders): CustomCommandList {
  return loadCustomCommands({
    ...where,
    builtinNames: BUILTIN_COMMAND_WORDS,
    projectTrusted: runtime.settings.projectTrust === 'trusted',
  });
}

/**
 * The custom commands as the Agent SDK's `SlashCommand` rows (`initialize`'s `commands`): name,
 * description and argument hint, the project's first.
 */
export function customCommandRows(list: CustomCommandList) {
  return [...list.commands.values()].map((command) => ({
    name: command.name,
    description: command.file.description ?? `(${command.scope}) ${command.path}`,
    argumentHint: command.file.argumentHint ?? '',
  }));
}

/**
 * The turn a prompt from outside the terminal UI starts (`-p`, a stream-json user message): a
 * custom command's when the prompt is `/name [arguments]` and such a command exists, as in the
 * terminal UI (its `!` lines go through the plane, where no person can answer an ask: denied);
 * else the prompt as it is, so `/etc/hosts …` or an unknown `/word` still reaches the model.
 */
export async function* promptTurn(
  runtime: Runtime,
  prompt: string,
  where: CommandFolders,
  signal: AbortSignal,
): AsyncGenerator<LoopEvent, QueryResult> {
  const line = parseSlashCommand(prompt);
  // `//review …` sends `/review …` as written, as in the terminal UI; a built-in's name is a prompt here.
  if (line.kind === 'prompt') return yield* runtime.session.submit(line.text, signal);
  if (line.kind !== 'unknown-command') return yield* runtime.session.submit(prompt, signal);
  const list = customCommandsOf(runtime, where);
  // A broken file may be the command meant: what is wrong with it is told before anything runs.
  if (list.problems.length > 0)
    yield { type: 'notice', message: `Custom command files with problems:\n${list.problems.join('\n')}` };
  const command = list.commands.get(line.name);
  if (command === undefined) return yield* runtime.session.submit(prompt, signal);
  return yield* commandTurn(runtime, command, line.argument.trim(), signal);
}

/** Runs `command` on the runtime's session ({@link runCustomCommand}); `allowed-tools` only in a trusted folder. */
export function commandTurn(
  runtime: Runtime,
  command: CustomCommand,
  argument: string,
  signal: AbortSignal,
): AsyncGenerator<LoopEvent, QueryResult> {
  return runCustomCommand({
    session: runtime.session,
    permissions: runtime.permissions,
    trusted: runtime.settings.projectTrust === 'trusted',
    command,
    argument,
    signal,
  });
}

/** The result of a turn stopped before anything was sent (a custom command interrupted in its `!` lines). */
export function unsentTurn(error: Error): QueryResult {
  return {
    status: 'aborted',
    text: '',
    messages: [],
    turns: 0,
    permissionDenials: [],
    usage: ZERO_USAGE,
    modelUsage: {},
    costUsd: 0,
    apiDurationMs: 0,
    stopReason: undefined,
    error,
  };
}
