import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporaryName } from '../contract/temporary-name.js';

/** Where oversized results go: the session's `tool-results/` folder. */
export type ResultStore = {
  readonly directory: string;
  /** Writes the full text of one result (mode 0600) and returns the file's absolute path. */
  save(toolUseId: string, text: string, signal?: AbortSignal): Promise<string>;
};

/** Creates a store writing into `directory` (created on first use with mode 0700). */
export function createResultStore(options: { readonly directory: string }): ResultStore {
  let ready: Promise<unknown> | undefined;
  return {
    directory: options.directory,
    async save(toolUseId, text, signal) {
      // A failed attempt is not remembered: otherwise one transient error would fail every later save.
      ready ??= mkdir(options.directory, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      await ready;
      const safeId = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120) || 'result';
      const path = join(options.directory, `${safeId}.txt`);
      // Written beside it under a temporary name, then renamed: a kill mid-write leaves no partial
      // result under the name the model is given, only a temporary file the next start sweeps.
      const temporary = join(options.directory, temporaryName());
      try {
        await writeFile(temporary, text, { mode: 0o600, signal });
        await rename(temporary, path);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
      return path;
    },
  };
}
