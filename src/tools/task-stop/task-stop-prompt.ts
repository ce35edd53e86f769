/** The TaskStop tool's model-facing description. */
export const TASK_STOP_PROMPT = `Stops a background task (a Bash command started with run_in_background: true): its process and every process it started are killed.

- task_id: the id the Bash call returned.

Use it when a server, watcher or long build is no longer needed, or is stuck. Read any remaining output first with TaskOutput if you need it; the output file stays after the task stops.

Stopping a task that already finished changes nothing and says so. An unknown task id means the id is mistyped or the task belongs to another session; use the id from the Bash result.`;
