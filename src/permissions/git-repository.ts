import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Which git repository a folder belongs to. git reads a repository's own configuration, which
 * can name programs it runs (`core.fsmonitor`, `core.pager`, hooks), so a git command in a
 * nested or foreign repository runs code that no rule for the project's repository approved.
 */

/** The nearest folder at or above `folder` holding `.git` (a folder, or a file pointing elsewhere). */
export function repositoryRoot(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Whether a command that may run in any of `cwds` (unknown: `undefined`) uses another repository than the session's. */
export function runsInOtherRepository(cwds: readonly string[] | undefined, sessionCwd: string): boolean {
  if (cwds === undefined) return true;
  const elsewhere = cwds.filter((cwd) => cwd !== sessionCwd);
  if (elsewhere.length === 0) return false;
  const session = repositoryRoot(sessionCwd);
  return elsewhere.some((cwd) => repositoryRoot(cwd) !== session);
}
