import { useCallback, useEffect, type RefObject } from 'react';
import type { LoopEvent, QueryResult, SessionSummary } from '../../session/index.js';
import { INIT_PROMPT } from '../slash-commands/init-prompt.js';
import { customCommandHelp } from './custom-command-help.js';
import { EMPTY_LINE, type LineState } from './edit-line.js';
import type { InteractiveHost } from './interactive-host.js';
import { parseSlashCommand, slashHelp, type SlashCommandName } from './parse-slash-command.js';
import { resumableSessions } from './resumable-sessions.js';
import type { RunningWork, TurnSource } from './use-turns.js';

/** The resume picker: the sessions listed and the one selected. */
export type Picker = { readonly sessions: readonly SessionSummary[]; readonly selected: number };

type Notice = (text: string, tone?: 'info' | 'warning' | 'error') => void;

const NEEDS_IDLE: ReadonlySet<SlashCommandName> = new Set(['compact', 'resume', 'clear', 'init']);

/** What a submitted line does: a slash command, or a prompt that starts a turn. Returns the submit handler. */
export function useCommands(options: {
  readonly host: InteractiveHost;
  readonly turn: RefObject<RunningWork | undefined>;
  readonly notice: Notice;
  readonly runTurn: (prompt: string, source?: TurnSource) => void;
  readonly background: (label: string, task: (signal: AbortSignal) => Promise<void>) => void;
  readonly shutdown: (code: number) => Promise<void>;
  readonly startOver: (message: string) => void;
  readonly setPicker: (picker: Picker | undefined) => void;
  readonly setLine: (line: LineState) => void;
  readonly setHint: (hint: string | undefined) => void;
}): (text: string) => void {
  const { host, turn, notice, runTurn, background, shutdown, startOver, setPicker, setLine, setHint } = options;
  // Broken or clashing command files are told once at the start; /help lists them again.
  useEffect(() => {
    const problems = host.customCommands?.().problems ?? [];
    if (problems.length > 0) notice(`Custom command files with problems:\n${problems.join('\n')}`, 'warning');
  }, [host, notice]);

  const runCommand = useCallback(
    (name: SlashCommandName, argument: string) => {
      if (NEEDS_IDLE.has(name) && turn.current) {
        notice(`/${name} waits for the running turn: press Esc to interrupt it first.`, 'warning');
        return;
      }
      switch (name) {
        case 'help':
          return notice([slashHelp(), customCommandHelp(host.customCommands?.())].filter(Boolean).join('\n'));
        case 'permissions':
          return notice(host.describePermissions());
        case 'mcp':
          return notice(host.describeMcp());
        case 'hooks':
          return notice(host.describeHooks());
        case 'model':
          return switchModel(host, argument, notice);
        case 'cost':
          return notice(host.describeCost?.() ?? unavailable(name));
        case 'config':
          return notice(host.describeConfig?.() ?? unavailable(name));
        case 'agents':
          return notice(host.describeAgents?.() ?? unavailable(name));
        case 'doctor':
          return background('Running the doctor', async (signal) =>
            notice(host.doctor ? await host.doctor(signal) : unavailable(name)),
          );
        case 'init':
          return runTurn('/init', (signal) => host.submit(INIT_PROMPT, signal));
        case 'exit':
          return void shutdown(0);
        case 'trust': {
          const { trustFolder } = host;
          if (!trustFolder) return notice('This session cannot record trust; use toolplane trust.', 'warning');
          return background('Trusting the folder', async (signal) => notice(await trustFolder(signal)));
        }
        case 'compact':
          return background('Compacting', async (signal) => notice(await host.compact(signal)));
        case 'clear':
          return background('Clearing', async () => {
            await host.clear();
            startOver(`New session ${host.status().sessionId}.`);
          });
        case 'resume':
          return background('Listing sessions', async () => {
            const sessions = resumableSessions(await host.listSessions(), host.status().sessionId);
            if (sessions.length === 0) notice('No earlier sessions in this project.');
            else setPicker({ sessions, selected: 0 });
          });
      }
    },
    [host, turn, notice, runTurn, shutdown, background, startOver, setPicker],
  );

  return useCallback(
    (text: string) => {
      const parsed = parseSlashCommand(text);
      switch (parsed.kind) {
        case 'empty':
          return;
        case 'unknown-command': {
          const custom = customCommandRun(host, parsed.name, parsed.argument);
          if (custom === undefined) {
            setLine(EMPTY_LINE);
            return notice(`Unknown command /${parsed.name}. /help lists the commands.`, 'warning');
          }
          if (turn.current) return setHint('a turn is running: Esc interrupts it');
          setLine(EMPTY_LINE);
          return runTurn(text.trim(), custom);
        }
        case 'command':
          setLine(EMPTY_LINE);
          return runCommand(parsed.name, parsed.argument.trim());
        case 'prompt':
          if (turn.current) {
            setHint('a turn is running: Esc interrupts it');
            return;
          }
          setLine(EMPTY_LINE);
          return runTurn(parsed.text);
      }
    },
    [host, notice, runCommand, runTurn, setLine, setHint, turn],
  );
}

/** The turn of custom command `name`, when there is one by that name now. */
function customCommandRun(
  host: InteractiveHost,
  name: string,
  argument: string,
): ((signal: AbortSignal) => AsyncGenerator<LoopEvent, QueryResult>) | undefined {
  const { runCustomCommand } = host;
  const command = runCustomCommand && host.customCommands?.().commands.get(name);
  if (!runCustomCommand || !command) return undefined;
  return (signal) => runCustomCommand(command, argument.trim(), signal);
}

/** `/model` alone shows the model; `/model NAME` switches to it for the next requests. */
function switchModel(host: InteractiveHost, argument: string, notice: Notice): void {
  const current = host.status().model;
  if (argument === '') return notice(`Model: ${current}. /model NAME switches to another.`);
  if (/\s/.test(argument)) return notice(`/model takes one model name, not "${argument}".`, 'warning');
  if (host.setModel === undefined) return notice(unavailable('model'), 'warning');
  host.setModel(argument);
  notice(`Model: ${argument} (was ${current}); the next requests go to it.`);
}

function unavailable(name: string): string {
  return `/${name} is not available here.`;
}
