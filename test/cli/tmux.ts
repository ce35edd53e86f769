import { execFileSync, spawnSync } from 'node:child_process';

/** Whether tmux is installed: the terminal tests are skipped without it. */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** Runs tmux on the private server `socket` (a name, or a function for a name that changes per test). */
export function tmuxOn(socket: string | (() => string)): (...args: string[]) => string {
  return (...args) =>
    execFileSync('tmux', ['-L', typeof socket === 'string' ? socket : socket(), ...args], { encoding: 'utf8' });
}

/**
 * Reads the screen with `capture` every 100 ms until `test` passes, and returns it; past
 * `timeoutMs` it fails naming `what` it waited for, with the screen last seen.
 */
export async function waitForScreen(
  capture: () => string,
  test: (screen: string) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = capture();
    if (test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
