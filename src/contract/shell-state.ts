import { defineService } from './services.js';

/**
 * The shell's working folder per session, kept between Bash calls (a `cd` in one call holds for
 * the next). The host registers one so the permission engine judges a command in the folder the
 * shell is really in; it may also read or show the current folder.
 */
export type ShellState = {
  getCwd(sessionId: string): string | undefined;
  setCwd(sessionId: string, cwd: string): void;
};

/**
 * The service key for the shell state. Without it each Bash tool keeps its own, which the
 * permission engine cannot see: the tool then asks before running anywhere but the session folder.
 */
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
