import type { TaskSnapshot } from './task-registry.js';

/** One phrase for a task's state: `running`, `completed (exit code 0)`, `killed`, … */
export function describeTaskStatus(task: TaskSnapshot): string {
  switch (task.status) {
    case 'running':
      return 'running';
    case 'killed':
      return 'stopped';
    case 'completed':
    case 'failed':
      return task.exitCode === null
        ? `${task.status} (killed by signal ${task.signal ?? 'unknown'})`
        : `${task.status} (exit code ${task.exitCode})`;
  }
}

/** The message for a task id the registry does not know, listing the ids it does. */
export function unknownTaskMessage(taskId: string, known: readonly TaskSnapshot[]): string {
  const ids = known.map((task) => `${task.id} (${task.description}, ${describeTaskStatus(task)})`);
  return (
    `No background task with id "${taskId}" in this session. ` +
    (ids.length === 0
      ? 'No background tasks have been started; start one with Bash and run_in_background: true.'
      : `Known tasks: ${ids.join('; ')}. Use the id exactly as the Bash result gave it.`)
  );
}
