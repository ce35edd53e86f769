import { join } from 'node:path';
import type { ServiceRegistry } from '../../contract/services.js';
import { createTemporaryJournal, TEMPORARY_JOURNAL } from '../../tools/fs-helpers/temporary-files.js';
import { sweepTemporaries } from '../../tools/fs-helpers/sweep-temporaries.js';

/**
 * At start: sweeps what interrupted writes of earlier runs left (their temporary files in the
 * config folder, this project's session folders and `.toolplane/`, and those the journals of
 * finished processes name), then gives this run's file writes a journal of their own. Returns
 * what to run at close.
 */
export async function startTemporarySweep(options: {
  readonly configDir: string;
  readonly sessionsFolder: string;
  readonly cwd: string;
  readonly services: ServiceRegistry;
  readonly warn: (line: string) => void;
}): Promise<() => Promise<void>> {
  const journalDirectory = join(options.configDir, 'in-flight');
  const removed = await sweepTemporaries({
    journalDirectory,
    folders: [
      { path: options.configDir, depth: 0 },
      { path: options.sessionsFolder, depth: 2 },
      { path: join(options.cwd, '.toolplane'), depth: 0 },
    ],
  });
  if (removed.length > 0)
    options.warn(`toolplane: removed ${removed.length} temporary file(s) that interrupted writes left behind`);
  const journal = createTemporaryJournal({ directory: journalDirectory });
  options.services.set(TEMPORARY_JOURNAL, journal);
  return () => journal.dispose();
}
