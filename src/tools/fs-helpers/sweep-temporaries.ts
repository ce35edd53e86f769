import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { temporaryOwner } from '../../contract/temporary-name.js';

/** A folder to sweep, and how many levels of sub-folders below it (0: its own files only). */
export type SweepFolder = { readonly path: string; readonly depth: number };

/** Options for {@link sweepTemporaries}. */
export type SweepTemporariesOptions = {
  /** Where the processes' journals of temporary files are (`<pid>.list`, see `createTemporaryJournal`). */
  readonly journalDirectory: string;
  /** Folders only we write in (the session folders, the config folder), swept by name. */
  readonly folders: readonly SweepFolder[];
  /** Only files last changed longer ago than this are taken. Default 10 minutes. */
  readonly minimumAgeMs?: number;
  /** Whether the process `pid` still runs (default: a signal-0 probe). */
  readonly isAlive?: (pid: number) => boolean;
  readonly now?: number;
};

/**
 * The temporary files this program's writes use, by name: ours (`.tp-<pid>-<hex>.tmp`), the
 * sandbox's caches (`<file>.<pid>.tmp`), and the `write-file-atomic` package's for settings files
 * (`<settings file>.<number>`, no pid in it: age alone decides).
 */
function ownerOf(name: string): number | 'unknown' | undefined {
  const ours = temporaryOwner(name);
  if (ours !== undefined) return ours;
  const cache = /^[A-Za-z0-9_.-]+\.json\.(\d{1,10})\.tmp$/.exec(name);
  if (cache) return Number(cache[1]);
  if (/^(settings|settings\.local|trusted-projects|held-settings)\.json\.\d{1,10}$/.test(name)) return 'unknown';
  return undefined;
}

function probeAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what interrupted writes left behind: a temporary file is taken only when its name is one
 * of ours, the process that made it no longer runs, and it is older than `minimumAgeMs`; anything
 * else (a file of a running session, a file someone named like ours but newer) stays. Journals of
 * processes that are gone are read, their files swept, and the journals removed. Never throws;
 * returns the files it removed.
 */
export async function sweepTemporaries(options: SweepTemporariesOptions): Promise<string[]> {
  const isAlive = options.isAlive ?? probeAlive;
  const oldest = (options.now ?? Date.now()) - (options.minimumAgeMs ?? 10 * 60_000);
  const removed: string[] = [];
  const take = async (file: string, owner: number | 'unknown' | undefined) => {
    if (owner === undefined || (owner !== 'unknown' && (owner === process.pid || isAlive(owner)))) return;
    const stats = await lstat(file).catch(() => undefined);
    if (!stats?.isFile() || stats.mtimeMs > oldest) return;
    await unlink(file).then(
      () => removed.push(file),
      () => undefined,
    );
  };
  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && depth > 0) await walk(full, depth - 1);
      else if (entry.isFile()) await take(full, ownerOf(entry.name));
    }
  };
  for (const folder of options.folders) await walk(folder.path, folder.depth);
  for (const name of await readdir(options.journalDirectory).catch(() => [])) {
    const match = /^(\d{1,10})\.list$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const list = path.join(options.journalDirectory, name);
    const text = await readFile(list, 'utf8').catch(() => '');
    let left = false;
    for (const file of new Set(text.split('\n'))) {
      // A journal names only files that process made: the name must say so too.
      if (!path.isAbsolute(file) || temporaryOwner(path.basename(file)) !== pid) continue;
      await take(file, pid);
      left ||= (await lstat(file).catch(() => undefined)) !== undefined;
    }
    // Kept while a file it names is too young to take, so a later start still finds it.
    if (!left) await unlink(list).catch(() => undefined);
  }
  return removed;
}
