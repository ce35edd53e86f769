import { render } from 'ink';
import { App, type AppControls } from './app.js';
import { createApprovalQueue } from './approval-queue.js';
import type { InteractionChannel } from '../../tools/ask-user-question/interaction-channel.js';
import type { InteractiveHost } from './interactive-host.js';
import { createTerminalInteraction } from './terminal-interaction.js';

/**
 * A host that can also take the terminal's interaction channel (AskUserQuestion, ExitPlanMode);
 * it registers the channel under INTERACTION_CHANNEL for the session's tools.
 */
export type InteractiveHostWithChannel = InteractiveHost & {
  setInteractionChannel?(channel: InteractionChannel): void;
};

/** Options of {@link runInteractive}. Streams default to the process's. */
export type RunInteractiveOptions = {
  readonly stdin?: NodeJS.ReadStream;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
  /** Sent as the first prompt once the UI is up. */
  readonly initialPrompt?: string;
  /** Aborting it closes the UI as `/exit` does. */
  readonly signal?: AbortSignal;
};

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/** Exit code when the terminal UI cannot start (no interactive terminal). */
export const EXIT_NOT_A_TERMINAL = 2;

/**
 * Runs the interactive terminal UI over `host` until the person exits (`/exit`, Ctrl+C twice),
 * the process gets SIGTERM or SIGHUP, or `options.signal` aborts; then closes the host (a running
 * turn is interrupted first, so every pending call gets its result). Resolves with the exit code: 0, 1 when closing the
 * host failed, {@link EXIT_NOT_A_TERMINAL} when stdin is not a terminal. Registers its Approver
 * with `host.setApprover` (and its interaction channel with `host.setInteractionChannel`, when the
 * host has it) before anything is submitted. This module is the only one that loads
 * Ink and React: import it dynamically so headless runs never load them.
 */
export async function runInteractive(
  host: InteractiveHostWithChannel,
  options: RunInteractiveOptions = {},
): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  if (!stdin.isTTY) {
    stderr.write('toolplane: the interactive UI needs a terminal on stdin. Use -p "PROMPT" for a headless run.\n');
    return EXIT_NOT_A_TERMINAL;
  }
  const approvals = createApprovalQueue();
  host.setApprover(approvals);
  const interaction = createTerminalInteraction();
  host.setInteractionChannel?.(interaction.channel);
  const controls: AppControls = {};
  let exitCode = 0;
  const onSignal = () => controls.requestExit?.(0);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  options.signal?.addEventListener('abort', onSignal, { once: true });
  // Bracketed paste: the terminal marks pasted text, so its line breaks stay text and never send it.
  if (stdout.isTTY) stdout.write(BRACKETED_PASTE_ON);
  const instance = render(
    <App
      host={host}
      approvals={approvals}
      interactions={interaction.queue}
      controls={controls}
      onExit={(code) => {
        exitCode = code;
      }}
      {...(options.initialPrompt !== undefined ? { initialPrompt: options.initialPrompt } : {})}
    />,
    { stdin, stdout, stderr, exitOnCtrlC: false, patchConsole: false },
  );
  try {
    await instance.waitUntilExit();
    stdout.write(`Transcript: ${host.transcriptPath()}\n`);
  } finally {
    if (stdout.isTTY) stdout.write(BRACKETED_PASTE_OFF);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    options.signal?.removeEventListener('abort', onSignal);
  }
  return exitCode;
}
