/**
 * Where the runtime's warnings go: to `fallback` (stderr) until a listener takes them, then to
 * the listener. A terminal UI must take them while it draws: a line written to the terminal
 * behind its back shifts what it erases on the next frame, and a line of its output is left
 * on screen twice.
 */
export type WarningRelay = {
  readonly warn: (line: string) => void;
  /** Takes the warnings from now on (the last listener added wins); returns a function giving them back. */
  readonly listen: (listener: (line: string) => void) => () => void;
};

/** Creates a {@link WarningRelay} over `fallback`. */
export function createWarningRelay(fallback: (line: string) => void): WarningRelay {
  const listeners: Array<(line: string) => void> = [];
  return {
    warn: (line) => (listeners.at(-1) ?? fallback)(line),
    listen: (listener) => {
      listeners.push(listener);
      return () => {
        const index = listeners.lastIndexOf(listener);
        if (index >= 0) listeners.splice(index, 1);
      };
    },
  };
}
