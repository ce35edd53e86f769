import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

const BASH_LOCATIONS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'];

/**
 * Finds the shell Bash commands run in: bash from the usual places or `PATH`, else the user's
 * `$SHELL`, else `/bin/sh`.
 */
export async function resolveShell(env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const fromPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((folder) => path.join(folder, 'bash'));
  for (const candidate of [...BASH_LOCATIONS, ...fromPath]) {
    if (await isExecutable(candidate)) return candidate;
  }
  const userShell = env.SHELL;
  if (userShell && path.isAbsolute(userShell) && (await isExecutable(userShell))) return userShell;
  return '/bin/sh';
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
