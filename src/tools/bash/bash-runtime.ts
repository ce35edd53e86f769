import { stat } from 'node:fs/promises';
import type { ToolCallContext } from '../../contract/tool.js';
import { SHELL_STATE, type ShellState } from './shell-state.js';
import { SPILL_FOLDER, type SpillFolder } from './spill-folder.js';

/** What one Bash tool's calls share: its settings, and the fallbacks used without host services. */
export type BashRuntime = {
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly maxOutputBytes: number;
  readonly killGraceMs: number;
  readonly progressIntervalMs: number;
  readonly fallbackState: ShellState;
  readonly fallbackSpill: SpillFolder;
  /** The shell's path, resolved once. */
  getShell(): Promise<string>;
};

/** The session's shell state: the host's service, else the tool's own table. */
export function shellStateOf(runtime: BashRuntime, context: ToolCallContext): ShellState {
  return context.services.get(SHELL_STATE) ?? runtime.fallbackState;
}

/** The folder for spill files: the host's (the session's results folder), else a temporary one. */
export function spillFolderOf(runtime: BashRuntime, context: ToolCallContext): Promise<string> {
  return (context.services.get(SPILL_FOLDER) ?? runtime.fallbackSpill).directory(context.signal);
}

/** Where the next command starts: the folder an earlier `cd` left, while it still exists. */
export async function startingCwd(
  runtime: BashRuntime,
  context: ToolCallContext,
): Promise<{ readonly cwd: string; readonly note: string | undefined }> {
  const remembered = shellStateOf(runtime, context).getCwd(context.sessionId);
  if (remembered !== undefined && (await isFolder(remembered))) return { cwd: remembered, note: undefined };
  const note =
    remembered === undefined
      ? undefined
      : `The previous working folder ${remembered} no longer exists; this command ran in ${context.cwd}.`;
  return { cwd: context.cwd, note };
}

/** True when `folder` exists and is a folder. */
export async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
}
