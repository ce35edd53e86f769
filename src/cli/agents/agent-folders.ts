import path from 'node:path';
import { realFolder } from '../real-folder.js';

/** Where agent files are read: the project's folders, then the person's. */
export function agentFolders(where: { readonly cwd: string; readonly homeDir: string }): {
  readonly project: readonly string[];
  readonly user: readonly string[];
} {
  return {
    project: [path.join(where.cwd, '.toolplane', 'agents'), path.join(where.cwd, '.claude', 'agents')],
    user: [path.join(where.homeDir, '.toolplane', 'agents'), path.join(where.homeDir, '.claude', 'agents')],
  };
}

/**
 * Whether any agent folder exists: the start of a run pays for the file reader (and its YAML
 * parser) only then.
 */
export function hasAgentFolders(where: { readonly cwd: string; readonly homeDir: string }): boolean {
  const { project, user } = agentFolders(where);
  return [...project, ...user].some((folder) => realFolder(folder) !== undefined);
}
