/** Default wait of a blocking TaskOutput call, in ms. */
export const DEFAULT_TASK_OUTPUT_TIMEOUT_MS = 30_000;
/** Longest wait a TaskOutput call may ask for, in ms. */
export const MAX_TASK_OUTPUT_TIMEOUT_MS = 600_000;

/** The TaskOutput tool's model-facing description. */
export const TASK_OUTPUT_PROMPT = `Reads the output of a background task (a Bash command started with run_in_background: true), with its status and exit code.

Each call returns the output written since your previous TaskOutput call for the same task; the first call returns everything so far. Very long output is cut to its most recent part; the result then names the file that holds all of it, which you can Read or Grep.

- task_id: the id the Bash call returned.
- block (default true): wait until the task finishes or \`timeout\` passes, whichever is first. Use block: false to check progress without waiting, for example for a server that never finishes.
- timeout: how long to wait, in milliseconds (default ${DEFAULT_TASK_OUTPUT_TIMEOUT_MS}, at most ${MAX_TASK_OUTPUT_TIMEOUT_MS}). When it passes, the task keeps running; you get the output so far.

When not to use it: for commands that finish quickly, run Bash without run_in_background instead.

On failure: an unknown task id means the task was never started in this session or the id is mistyped; use the id from the Bash result.`;
