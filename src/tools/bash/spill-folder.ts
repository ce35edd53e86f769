import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineService } from '../../contract/services.js';

/**
 * The folder where large command output is written instead of being held in memory (Bash spill
 * files, background task output, the shell's working-folder marker). The host usually points it
 * into the session's folder so the files outlive the call and the model can Read them.
 */
export type SpillFolder = {
  /** Creates the folder if needed and returns its absolute path. */
  directory(signal?: AbortSignal): Promise<string>;
};

/** The service key for the session's spill folder. Optional: Bash falls back to a temporary folder. */
export const SPILL_FOLDER = defineService<SpillFolder>('spill-folder');

/** Options for {@link createSpillFolder}. */
export type CreateSpillFolderOptions = {
  /** A fixed folder (created on first use); by default a fresh folder under the OS temp folder. */
  readonly path?: string;
};

/** Creates a spill folder that is made on first use and then reused. */
export function createSpillFolder(options: CreateSpillFolderOptions = {}): SpillFolder {
  let made: Promise<string> | undefined;
  const make = async () => {
    if (options.path !== undefined) {
      const absolute = path.resolve(options.path);
      await mkdir(absolute, { recursive: true });
      return absolute;
    }
    return mkdtemp(path.join(tmpdir(), 'toolplane-spill-'));
  };
  return {
    async directory(signal) {
      signal?.throwIfAborted();
      made ??= make();
      try {
        return await made;
      } catch (error) {
        made = undefined;
        throw error;
      }
    },
  };
}
