import { appendFileSync, mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { defineService } from '../../contract/services.js';

/**
 * Where the temporary files of writes outside known folders (Write, Edit and NotebookEdit write
 * beside their target, anywhere) are noted before they are made, so the next start can find what a
 * killed run left. One list a process; a list whose process is gone is read by the sweep and removed.
 */
export type TemporaryJournal = {
  /** Notes `file` (absolute) before it is created; a journal that cannot be written only loses the note. */
  record(file: string): void;
};

/** The service key of the session's temporary-file journal. Optional: without one nothing is noted. */
export const TEMPORARY_JOURNAL = defineService<TemporaryJournal>('temporary-journal');

/** The file a process's journal lists go in, under `directory`. */
export function journalFile(directory: string, pid: number): string {
  return path.join(directory, `${pid}.list`);
}

/**
 * A journal writing to `<directory>/<pid>.list` (folder 0700, list 0600, made on first note);
 * `dispose` removes the list when the process ends cleanly (every write of it has finished).
 */
export function createTemporaryJournal(options: {
  readonly directory: string;
}): TemporaryJournal & { dispose(): Promise<void> } {
  const file = journalFile(options.directory, process.pid);
  let ready = false;
  return {
    record(temporary) {
      try {
        if (!ready) mkdirSync(options.directory, { recursive: true, mode: 0o700 });
        ready = true;
        appendFileSync(file, `${temporary}\n`, { mode: 0o600 });
      } catch {
        // Without the note a killed write's temporary file stays until someone removes it; the write itself goes on.
      }
    },
    async dispose() {
      if (ready) await unlink(file).catch(() => undefined);
    },
  };
}
