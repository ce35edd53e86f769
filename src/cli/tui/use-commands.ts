import { useCallback, type RefObject } from 'react';
import type { SessionSummary } from '../../session/index.js';
import { EMPTY_LINE, type LineState } from './edit-line.js';
import type { InteractiveHost } from './interactive-host.js';
import { parseSlashCommand, slashHelp, type SlashCommandName } from './parse-slash-command.js';
import type { RunningWork } from './use-turns.js';

/** The resume picker: the sessions listed and the one selected. */
export type Picker = { readonly sessions: readonly SessionSummary[]; readonly selected: number };

const NEEDS_IDLE: ReadonlySet<SlashCommandName> = new Set(['compact', 'resume', 'clear']);

/** What a submitted line does: a slash command, or a prompt that starts a turn. Returns the submit handler. */
export function useCommands(options: {
  readonly host: InteractiveHost;
  readonly turn: RefObject<RunningWork | undefined>;
  readonly notice: (text: string, tone?: 'info' | 'warning' | 'error') => void;
  readonly runTurn: (prompt: string) => void;
  readonly background: (label: string, task: (signal: AbortSignal) => Promise<void>) => void;
  readonly shutdown: (code: number) => Promise<void>;
  readonly startOver: (message: string) => void;
  readonly setPicker: (picker: Picker | undefined) => void;
  readonly setLine: (line: LineState) => void;
  readonly setHint: (hint: string | undefined) => void;
}): (text: string) => void {
  const { host, turn, notice, runTurn, background, shutdown, startOver, setPicker, setLine, setHint } = options;
  const runCommand = useCallback(
    (name: SlashCommandName) => {
      if (NEEDS_IDLE.has(name) && turn.current) {
        notice(`/${name} waits for the running turn: press Esc to interrupt it first.`, 'warning');
        return;
      }
      switch (name) {
        case 'help':
          return notice(slashHelp());
        case 'permissions':
          return notice(host.describePermissions());
        case 'mcp':
          return notice(host.describeMcp());
        case 'hooks':
          return notice(host.describeHooks());
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
            const sessions = await host.listSessions();
            if (sessions.length === 0) notice('No earlier sessions in this project.');
            else setPicker({ sessions, selected: 0 });
          });
      }
    },
    [host, turn, notice, shutdown, background, startOver, setPicker],
  );

  return useCallback(
    (text: string) => {
      const parsed = parseSlashCommand(text);
      switch (parsed.kind) {
        case 'empty':
          return;
        case 'unknown-command':
          setLine(EMPTY_LINE);
          return notice(`Unknown command /${parsed.name}. /help lists the commands.`, 'warning');
        case 'command':
          setLine(EMPTY_LINE);
          return runCommand(parsed.name);
        case 'prompt':
          if (turn.current) {
            setHint('a turn is running: Esc interrupts it');
            return;
          }
          setLine(EMPTY_LINE);
          return runTurn(parsed.text);
      }
    },
    [notice, runCommand, runTurn, setLine, setHint, turn],
  );
}
