import { defineService } from '../../contract/services.js';

/**
 * The shell's working folder per session, kept between Bash calls (a `cd` in one call holds for
 * the next). The host may register one to read or show the current folder.
 */
export type ShellState = {
  getCwd(sessionId: string): string | undefined;
  setCwd(sessionId: string, cwd: string): void;
};

/** The service key for the shell state. Optional: each Bash tool keeps its own when none is set. */
export const SHELL_STATE = defineService<ShellState>('shell-state');

/** Creates an in-memory shell state. */
export function createShellState(): ShellState {
  const folders = new Map<string, string>();
  return {
    getCwd: (sessionId) => folders.get(sessionId),
    setCwd: (sessionId, cwd) => {
      folders.set(sessionId, cwd);
    },
  };
}
