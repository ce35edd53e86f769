import { realpathSync, statSync } from 'node:fs';

/**
 * The real path of `folder` when it is a folder (links followed); undefined when it is absent, a
 * file, under a file, or a link loop — never an exception.
 */
export function realFolder(folder: string): string | undefined {
  try {
    return statSync(folder).isDirectory() ? realpathSync(folder) : undefined;
  } catch {
    return undefined;
  }
}
